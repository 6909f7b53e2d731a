// The variant matrix, part 3 (see tests/variant-matrix.ts).
import { defineVariantMatrix } from './variant-matrix.js'

await defineVariantMatrix(2)
