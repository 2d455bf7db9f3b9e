export { emitTo, signalSessionRevoked, closeEmitter, removeUserFromRoom } from './emitter.js';
export { socketChannel, sessionRoom } from './channel.js';
