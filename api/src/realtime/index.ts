export { emitTo, closeEmitter } from './emitter.js';
export { attachRealtime, socketChannel, type Io } from './gateway.js';
