// The variant matrix, part 2 (see tests/variant-matrix.ts).
import { defineVariantMatrix } from './variant-matrix.js'

await defineVariantMatrix(1)
