// Run by containment.test.ts as a process of its own: connects to the protocol server given on
// the command line, closes the connection and exits at once, within the grace a closed server
// gets to end by itself.
import { connectRemote } from '../harness/protocol/remote-adapter.js'

const adapter = connectRemote({ command: process.argv.slice(2).join(' ') })
adapter.close()
process.exit(0)
