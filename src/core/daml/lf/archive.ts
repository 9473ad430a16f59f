/**
 * Reading Daml packages as they come: the `ArchivePayload` bytes `GET /v2/packages/{id}` serves, the
 * `Archive` messages (`.dalf` files) inside a DAR, and DARs themselves (zip files). Message layout
 * from daml_lf.proto (digital-asset/daml sdk/daml-lf/archive/…/daml_lf.proto):
 * `Archive { hash_function = 1; payload = 3; hash = 4 }`,
 * `ArchivePayload { minor = 3; patch = 5; oneof { bytes daml_lf_1 = 2; bytes daml_lf_2 = 4 } }`.
 */
import { createHash } from 'node:crypto';
import { unzipSync } from 'fflate';
import { LfDecodeError } from '../../errors';
import type { DamlPackage } from '../model';
import { decodePackage, PackageFormatError } from './package';
import { WireReader } from './wire';

/** SHA-256 of the bytes in lowercase hex: a package's id is this hash of its ArchivePayload. */
export function packageIdOf(payload: Uint8Array): string {
  return createHash('sha256').update(payload).digest('hex');
}

/**
 * Decodes the `ArchivePayload` bytes of a package (the body of `GET /v2/packages/{id}`). The id is
 * computed from the bytes; when `expectedId` is given (the id it was fetched by) they must agree.
 * @throws LfDecodeError on malformed bytes, an id mismatch or a Daml-LF 1 package.
 */
export function decodeArchivePayload(payload: Uint8Array, expectedId?: string): DamlPackage {
  const id = packageIdOf(payload);
  if (expectedId !== undefined && expectedId !== id) {
    throw new LfDecodeError('hash', `the payload's SHA-256 is ${id}, not the package id ${expectedId}`, expectedId);
  }
  return withDecodeErrors(id, () => {
    let minor = '';
    let lf2: Uint8Array | undefined;
    let hasLf1 = false;
    WireReader.read(payload, (w, end) =>
      w.fields(end, {
        2: (wt) => {
          w.bytes(wt);
          hasLf1 = true;
        },
        3: (wt) => (minor = w.string(wt)),
        4: (wt) => (lf2 = w.bytes(wt)),
      }),
    );
    if (!lf2) {
      throw hasLf1 ? new LfDecodeError('unsupported-version', `Daml-LF 1.${minor} packages are not supported`, id) : new LfDecodeError('package', 'no Daml-LF 2 package in the payload', id);
    }
    const body = decodePackage(lf2, id);
    return { id, name: body.name, version: body.version, lfVersion: `2.${minor}`, modules: body.modules, dependencies: body.dependencies };
  });
}

/**
 * Decodes a serialized `Archive` (a `.dalf`): checks that the hash function is SHA-256 and that the
 * SHA-256 of the payload is the archive's hash, which is the package id.
 * @throws LfDecodeError
 */
export function decodeArchive(bytes: Uint8Array): DamlPackage {
  const { payload, hash } = readArchiveEnvelope(bytes);
  return decodeArchivePayload(payload, hash);
}

/**
 * The payload and hash of a serialized `Archive`, without decoding the payload (cheap: lets a cache
 * find the package by its id first). The hash is not checked here; {@link decodeArchivePayload} checks it.
 * @throws LfDecodeError
 */
export function readArchiveEnvelope(bytes: Uint8Array): { payload: Uint8Array; hash: string } {
  return withDecodeErrors(undefined, () => readArchive(bytes));
}

function readArchive(bytes: Uint8Array): { payload: Uint8Array; hash: string } {
  let hashFunction = 0;
  let payload: Uint8Array | undefined;
  let hash: string | undefined;
  WireReader.read(bytes, (w, end) =>
    w.fields(end, {
      1: (wt) => (hashFunction = w.int32(wt)),
      3: (wt) => (payload = w.bytes(wt)),
      4: (wt) => (hash = w.string(wt)),
    }),
  );
  if (hashFunction !== 0) throw new LfDecodeError('archive', `unknown hash function ${hashFunction} (only SHA-256 is defined)`, hash);
  if (!payload || !hash) throw new LfDecodeError('archive', `the archive has no ${payload ? 'hash' : 'payload'}`, hash);
  return { payload, hash };
}

/** The packages of a DAR. */
export interface DarContents {
  /** The id of the main package (`Main-Dalf:` of the manifest). */
  mainPackageId: string;
  /** Every package in the DAR, the main one included, in the order of the zip. */
  packages: DamlPackage[];
}

/**
 * Reads a DAR: every `.dalf` in it, and which is the main package.
 * @param decode how to decode one `.dalf` (a cache can be passed in); by default {@link decodeArchive}.
 * @throws LfDecodeError
 */
export function readDar(bytes: Uint8Array, decode: (dalf: Uint8Array, path: string) => DamlPackage = decodeArchive): DarContents {
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(bytes, { filter: (file) => file.name.endsWith('.dalf') || file.name === MANIFEST });
  } catch (error) {
    throw new LfDecodeError('dar', `not a zip file (${error instanceof Error ? error.message : String(error)})`, undefined, undefined, error);
  }
  const manifest = files[MANIFEST];
  if (!manifest) throw new LfDecodeError('dar', `${MANIFEST} is missing`);
  const mainDalf = manifestAttribute(new TextDecoder().decode(manifest), 'Main-Dalf');
  if (!mainDalf) throw new LfDecodeError('dar', `${MANIFEST} has no Main-Dalf`);
  if (!files[mainDalf]) throw new LfDecodeError('dar', `the main package ${mainDalf} named by the manifest is not in the DAR`);
  let mainPackageId = '';
  const packages: DamlPackage[] = [];
  for (const [path, dalf] of Object.entries(files)) {
    if (path === MANIFEST) continue;
    const decoded = decode(dalf, path);
    if (path === mainDalf) mainPackageId = decoded.id;
    packages.push(decoded);
  }
  return { mainPackageId, packages };
}

const MANIFEST = 'META-INF/MANIFEST.MF';

/** One attribute of a JAR manifest; long values continue on lines that start with a space. */
function manifestAttribute(text: string, name: string): string | undefined {
  const joined = text.replace(/\r?\n /g, '');
  const prefix = `${name}:`;
  const line = joined.split(/\r?\n/).find((l) => l.startsWith(prefix));
  return line?.slice(prefix.length).trim();
}

/** Runs a decoding step, turning wire-format failures (ours and protobufjs's RangeErrors) into LfDecodeError. */
function withDecodeErrors<T>(packageId: string | undefined, decode: () => T): T {
  try {
    return decode();
  } catch (error) {
    if (error instanceof LfDecodeError) throw error;
    const location = error instanceof PackageFormatError ? error.location : undefined;
    const detail = error instanceof Error ? error.message : String(error);
    throw new LfDecodeError(packageId === undefined ? 'archive' : 'package', detail, packageId, location, error);
  }
}
