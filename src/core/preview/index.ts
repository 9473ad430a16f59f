/** The preview decoder as a bundle of its own (dist/preview.js): the extension loads it on the first preview. */
export { decodePreparedTransaction, readPreparedAnswer, type PreparedReading } from './decode';
