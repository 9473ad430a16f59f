/**
 * The few protobuf wire-format helpers the Daml-LF decoder (and the encoder) need, on protobufjs's minimal Reader
 * (no reflection, no generated code: the bundle stays small). Messages are read field by field and
 * every field without a handler is skipped as bytes, so the expression trees of a package are never
 * descended into (which is what makes deep LF 2.1 expressions harmless).
 */
import { Reader, Writer } from 'protobufjs/minimal';

export const WIRE_VARINT = 0;
export const WIRE_LENGTH_DELIMITED = 2;

/** Thrown for bytes that do not match the reduced schema; the decoder turns it into an LfDecodeError. */
export class WireFormatError extends Error {}

/** Handlers by field number; each reads its field's value from the reader (given the field's wire type). */
export type FieldHandlers = { [field: number]: (wireType: number) => void };

/** A protobuf reader over one buffer, reading messages with {@link FieldHandlers}. */
export class WireReader {
  private readonly reader: Reader;

  constructor(bytes: Uint8Array) {
    this.reader = Reader.create(bytes);
  }

  /** Reads a whole buffer as one message. */
  static read<T>(bytes: Uint8Array, read: (wire: WireReader, end: number) => T): T {
    const wire = new WireReader(bytes);
    return read(wire, bytes.length);
  }

  /** Reads the message from the current position to `end`; fields without a handler are skipped. */
  fields(end: number, handlers: FieldHandlers): void {
    const reader = this.reader;
    while (reader.pos < end) {
      const tag = reader.uint32();
      const field = tag >>> 3;
      if (field === 0) throw new WireFormatError(`invalid field number 0 at byte ${reader.pos}`);
      const handler = handlers[field];
      if (handler) handler(tag & 7);
      else reader.skipType(tag & 7);
    }
    if (reader.pos !== end) throw new WireFormatError(`a message overruns its length (byte ${reader.pos}, expected ${end})`);
  }

  /** Reads an embedded message (a length-delimited field) with `read`, which receives the message's end. */
  embedded<T>(wireType: number, read: (end: number) => T): T {
    expectWireType(wireType, WIRE_LENGTH_DELIMITED);
    const length = this.reader.uint32();
    const end = this.reader.pos + length;
    if (end > this.reader.len) throw new WireFormatError(`a field of ${length} bytes runs past the end of the data`);
    return read(end);
  }

  /** An embedded message of which only some fields matter. */
  message(wireType: number, handlers: FieldHandlers): void {
    this.embedded(wireType, (end) => this.fields(end, handlers));
  }

  /** The bytes of a length-delimited field (a view, not a copy), for reading later or elsewhere. */
  bytes(wireType: number): Uint8Array {
    expectWireType(wireType, WIRE_LENGTH_DELIMITED);
    return this.reader.bytes();
  }

  string(wireType: number): string {
    expectWireType(wireType, WIRE_LENGTH_DELIMITED);
    return this.reader.string();
  }

  int32(wireType: number): number {
    expectWireType(wireType, WIRE_VARINT);
    return this.reader.int32();
  }

  bool(wireType: number): boolean {
    expectWireType(wireType, WIRE_VARINT);
    return this.reader.bool();
  }

  /** A sint64 that is known to be small (a Numeric scale). */
  sint64(wireType: number): number {
    expectWireType(wireType, WIRE_VARINT);
    return Number(this.reader.sint64());
  }

  /** A repeated int32 field, packed (proto3's default) or not. */
  repeatedInt32(wireType: number, into: number[]): void {
    if (wireType !== WIRE_LENGTH_DELIMITED) {
      into.push(this.int32(wireType));
      return;
    }
    const end = this.reader.uint32() + this.reader.pos;
    while (this.reader.pos < end) into.push(this.reader.int32());
    if (this.reader.pos !== end) throw new WireFormatError('a packed list overruns its length');
  }
}

function expectWireType(actual: number, expected: number): void {
  if (actual !== expected) throw new WireFormatError(`wire type ${actual} where ${expected} was expected`);
}

/**
 * Writes messages field by field on protobufjs's minimal Writer: the encoding side of
 * {@link WireReader}, for building Daml-LF packages (the demo participant's catalog). Proto3 rules:
 * scalar fields that hold their default are left out, except members of a oneof.
 */
export class WireWriter {
  private readonly writer = Writer.create();

  /** The bytes of one message written by `write`. */
  static message(write: (w: WireWriter) => void): Uint8Array {
    const w = new WireWriter();
    write(w);
    return w.writer.finish();
  }

  int32(field: number, value: number, inOneof = false): this {
    if (value !== 0 || inOneof) this.writer.uint32((field << 3) | WIRE_VARINT).int32(value);
    return this;
  }

  bool(field: number, value: boolean): this {
    if (value) this.writer.uint32((field << 3) | WIRE_VARINT).bool(true);
    return this;
  }

  sint64(field: number, value: number, inOneof = false): this {
    if (value !== 0 || inOneof) this.writer.uint32((field << 3) | WIRE_VARINT).sint64(value);
    return this;
  }

  string(field: number, value: string, inOneof = false): this {
    if (value !== '' || inOneof) this.writer.uint32((field << 3) | WIRE_LENGTH_DELIMITED).string(value);
    return this;
  }

  /** A bytes field, or an embedded message already encoded. */
  bytes(field: number, value: Uint8Array): this {
    this.writer.uint32((field << 3) | WIRE_LENGTH_DELIMITED).bytes(value);
    return this;
  }

  /** An embedded message (written even when empty: message fields have presence). */
  embedded(field: number, write: (w: WireWriter) => void): this {
    return this.bytes(field, WireWriter.message(write));
  }

  /** A repeated int32, packed (proto3's default). */
  packedInt32(field: number, values: readonly number[]): this {
    if (values.length === 0) return this;
    this.writer.uint32((field << 3) | WIRE_LENGTH_DELIMITED).fork();
    for (const v of values) this.writer.int32(v);
    this.writer.ldelim();
    return this;
  }
}
