/** Every conformance property, by clause family, in SPEC.md order. */
import type { ConformanceProperty } from '../harness/property/property.js'
import apr from './apr.js'
import can from './can.js'
import code from './code.js'
import ctx from './ctx.js'
import def from './def.js'
import exe from './exe.js'
import fin from './fin.js'
import grd from './grd.js'
import inFamily from './in.js'
import meta from './meta.js'
import mode from './mode.js'
import out from './out.js'
import pre from './pre.js'
import pst from './pst.js'
import res from './res.js'
import scp from './scp.js'
import sch from './sch.js'
import tmo from './tmo.js'

export const SUITES: Readonly<Record<string, readonly ConformanceProperty[]>> = {
  def, sch, mode, in: inFamily, pre, apr, grd, exe, out, pst, fin, res, meta, can, tmo, ctx, scp, code,
} as Record<string, readonly ConformanceProperty[]>

export const PROPERTIES: readonly ConformanceProperty[] = Object.values(SUITES).flat()
