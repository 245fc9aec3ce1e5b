// Placeholder entry until the protocol lands.
import './styles.css'
import { validatePayloadSchema } from 'virtual:payload-validator'
window.parent.postMessage({ type: 'ready', ok: validatePayloadSchema({}) }, '*')
