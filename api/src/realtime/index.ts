export { attachRealtime, type Io } from './gateway.js';
