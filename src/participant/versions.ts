/**
 * What differs between the Canton release lines the participant can pretend to be (NOTES §7):
 * which endpoints exist, which validation rules apply, and small differences in the JSON.
 */

export type ApiVersion = '3.3' | '3.4' | '3.5' | '3.6';

export interface WireDialect {
  /** CreatedEvent `representativePackageId` and `acsDelta`, ExercisedEvent `acsDelta` (3.4+). */
  acsDeltaFields: boolean;
  /** CreatedEvent `contractKeyHash` (3.5+). */
  contractKeyHash: boolean;
  /** `paidTrafficCost` on transactions and reassignments (3.4.12+). */
  paidTrafficCost: boolean;
  /** `transactionHash` on transactions (3.6). */
  transactionHash: boolean;
  /** 3.3 called the reassignment id `unassignId`. */
  reassignmentIdField: 'reassignmentId' | 'unassignId';
  /** JsReassignment `synchronizerId` (3.4+). */
  reassignmentSynchronizerId: boolean;
  /** 3.3 wrote the topology permission as an int. */
  permissionAsInt: boolean;
  /** User `primaryPartyAuthentication` (3.5+). */
  primaryPartyAuthentication: boolean;
  /** `/v2/version` `features.packageFeature` (3.4+). */
  packageFeature: boolean;
}

export interface VersionProfile {
  /** What `/v2/version` answers: the release, marked as the demo. */
  release: string;
  /** `/v2/updates/flats` (gone in 3.6). */
  flats: boolean;
  /** `/v2/updates/get-updates-page` and `descendingOrder` (3.5+). */
  pagesAndDescendingOrder: boolean;
  /** `/v2/package-vetting/list` and `/update` (3.4.12+). */
  packageVetting: boolean;
  /** Package-id template ids in filters are rejected (3.5+). */
  rejectPackageIdFilters: boolean;
  /** Unvetting a dependency of a still-vetted package needs no force flag (3.5.5+). */
  unvetDependenciesOfVetted: boolean;
  wire: WireDialect;
}

const MODERN_WIRE: WireDialect = {
  acsDeltaFields: true,
  contractKeyHash: true,
  paidTrafficCost: true,
  transactionHash: false,
  reassignmentIdField: 'reassignmentId',
  reassignmentSynchronizerId: true,
  permissionAsInt: false,
  primaryPartyAuthentication: true,
  packageFeature: true,
};

export const VERSION_PROFILES: Readonly<Record<ApiVersion, VersionProfile>> = {
  '3.3': {
    release: '3.3.0-demo',
    flats: true,
    pagesAndDescendingOrder: false,
    packageVetting: false,
    rejectPackageIdFilters: false,
    unvetDependenciesOfVetted: false,
    wire: {
      ...MODERN_WIRE,
      acsDeltaFields: false,
      contractKeyHash: false,
      paidTrafficCost: false,
      reassignmentIdField: 'unassignId',
      reassignmentSynchronizerId: false,
      permissionAsInt: true,
      primaryPartyAuthentication: false,
      packageFeature: false,
    },
  },
  '3.4': {
    release: '3.4.12-demo',
    flats: true,
    pagesAndDescendingOrder: false,
    packageVetting: true,
    rejectPackageIdFilters: false,
    unvetDependenciesOfVetted: false,
    wire: { ...MODERN_WIRE, contractKeyHash: false, primaryPartyAuthentication: false },
  },
  '3.5': {
    release: '3.5.10-demo',
    flats: true,
    pagesAndDescendingOrder: true,
    packageVetting: true,
    rejectPackageIdFilters: true,
    unvetDependenciesOfVetted: true,
    wire: MODERN_WIRE,
  },
  '3.6': {
    release: '3.6.0-demo',
    flats: false,
    pagesAndDescendingOrder: true,
    packageVetting: true,
    rejectPackageIdFilters: true,
    unvetDependenciesOfVetted: true,
    wire: { ...MODERN_WIRE, transactionHash: true },
  },
};
