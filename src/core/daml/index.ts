/**
 * Daml for everyone: identifiers, the Daml-LF signature model, the package decoder,
 * an index over packages and the JSON Ledger API encoding of values. Importing this loads the decoder
 * (protobufjs, fflate); import the modules one by one where only identifiers or versions are needed.
 */
export * from './identifiers';
export * from './model';
export * from './packageVersions';
export { decodeArchive, decodeArchivePayload, packageIdOf, readArchiveEnvelope, readDar, type DarContents } from './lf/archive';
export { SELF_PACKAGE, encodeArchive, encodeArchivePayload, type PackageSource } from './lf/encode';
export { PackageCache, PackageIndex, type ChoiceEntry, type PackageIndexOptions, type TemplateEntry, type TypeLookup } from './packageIndex';
export { numericScale, printType, shapeOf, substitute, type PrintOptions, type TypeShape } from './types';
export {
  VALUE_PROBLEM_CODES, checkValue, jsonSchemaFor, skeletonValue, type JsonSchema, type SchemaOptions, type ValueProblem, type ValueProblemCode,
} from './jsonEncoding';
export { LfDecodeError, type LfDecodeStage } from '../errors';
