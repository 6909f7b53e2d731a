/** Mastra 1.0.4, through the npm alias mastra-core-1.0.4: its agent cannot drive its own mock model, so a scripted one. */
import { mastraAdapter } from './adapter.js'

export default mastraAdapter('mastra-core-1.0.4', '1.0.4', 'scripted-v2')
