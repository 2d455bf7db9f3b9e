export { emitTo, signalSessionRevoked, closeEmitter } from './emitter.js';
export { attachRealtime, type Io } from './gateway.js';
export { socketChannel, sessionRoom } from './channel.js';
