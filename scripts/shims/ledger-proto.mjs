// The bundles use one message of @canton-network/core-ledger-proto: PreparedTransaction (and what it
// references: Identifier and Value, which the contract-key fields of hashing scheme V3 decode on their own). The package's index re-exports the generated code of the whole Ledger API and Canton's
// topology admin services, whose module-level message instances esbuild cannot drop (constructors
// with side effects): importing the one generated file keeps ~540 KB of unused code out of dist/.
export { PreparedTransaction } from '../../node_modules/@canton-network/core-ledger-proto/dist/esm/_proto/com/daml/ledger/api/v2/interactive/interactive_submission_service.js';
export { Identifier, Value } from '../../node_modules/@canton-network/core-ledger-proto/dist/esm/_proto/com/daml/ledger/api/v2/value.js';
