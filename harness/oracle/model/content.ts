/** Whether a descriptor builds lossless JSON of SPEC.md's content shapes (OUT-5, CTX-1). */
import { isLosslessDesc, jsonOf } from '../../scenario/read-desc.js'
import type { ValueDesc } from '../../scenario/types.js'
import { isBlocks, isUserMessage } from '../shapes.js'

/** A lossless ContentBlock[]. */
export const isContent = (desc: ValueDesc): boolean => isLosslessDesc(desc) && isBlocks(jsonOf(desc))

/** A lossless UserMessage. */
export const isUserMessageDesc = (desc: ValueDesc): boolean => isLosslessDesc(desc) && isUserMessage(jsonOf(desc))
