export { emitTo, signalSessionRevoked, closeEmitter } from './emitter.js';
export { socketChannel, sessionRoom } from './channel.js';
