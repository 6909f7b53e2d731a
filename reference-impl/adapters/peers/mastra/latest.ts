/** Mastra, the latest @mastra/core this package pins (npm alias mastra-core-latest), driven by its own mock model. */
import { mastraAdapter } from './adapter.js'

export default mastraAdapter('mastra-core-latest', '1.71.0', 'mastra-mock')
