/**
 * The few protobuf wire-format helpers the Daml-LF decoder needs, on protobufjs's minimal Reader
 * (no reflection, no generated code: the bundle stays small). Messages are read field by field and
 * every field a handler does not claim is skipped as bytes, so the expression trees of a package are
 * never descended into (which is what makes deep LF 2.1 expressions harmless).
 */
import { Reader } from 'protobufjs/minimal';

export { Reader };

export const WIRE_VARINT = 0;
export const WIRE_LENGTH_DELIMITED = 2;

/** Thrown for bytes that do not match the reduced schema; the decoder turns it into an LfDecodeError. */
export class WireFormatError extends Error {}

/**
 * Reads the message from the reader's position to `end`. `onField` reads a field it knows and returns
 * true, or returns false to have it skipped.
 */
export function readFields(reader: Reader, end: number, onField: (field: number, wireType: number) => boolean): void {
  while (reader.pos < end) {
    const tag = reader.uint32();
    const field = tag >>> 3;
    const wireType = tag & 7;
    if (field === 0) throw new WireFormatError(`invalid field number 0 at byte ${reader.pos}`);
    if (!onField(field, wireType)) reader.skipType(wireType);
  }
  if (reader.pos !== end) throw new WireFormatError(`a message overruns its length (byte ${reader.pos}, expected ${end})`);
}

/** Reads an embedded message (length-delimited field) with `read`, which receives the message's end. */
export function readEmbedded<T>(reader: Reader, wireType: number, read: (end: number) => T): T {
  expectWireType(wireType, WIRE_LENGTH_DELIMITED);
  const length = reader.uint32();
  const end = reader.pos + length;
  if (end > reader.len) throw new WireFormatError(`a field of ${length} bytes runs past the end of the data`);
  return read(end);
}

/** Skips an embedded message, returning its bytes (a view, not a copy) for reading later. */
export function embeddedBytes(reader: Reader, wireType: number): Uint8Array {
  expectWireType(wireType, WIRE_LENGTH_DELIMITED);
  return reader.bytes();
}

/** Reads a varint field as an int32. */
export function readInt32(reader: Reader, wireType: number): number {
  expectWireType(wireType, WIRE_VARINT);
  return reader.int32();
}

/** Reads a repeated int32 field, packed (proto3's default) or not. */
export function readRepeatedInt32(reader: Reader, wireType: number, into: number[]): void {
  if (wireType === WIRE_LENGTH_DELIMITED) {
    const end = reader.uint32() + reader.pos;
    while (reader.pos < end) into.push(reader.int32());
    if (reader.pos !== end) throw new WireFormatError('a packed list overruns its length');
  } else {
    into.push(readInt32(reader, wireType));
  }
}

function expectWireType(actual: number, expected: number): void {
  if (actual !== expected) throw new WireFormatError(`wire type ${actual} where ${expected} was expected`);
}
