import type { StoreConformanceCase } from '../types.js';
import { copyCases } from './copies.js';
import { crudCases } from './crud.js';
import { eventCursorCases } from './events-cursors.js';
import { eventDeleteCases } from './events-deletes.js';
import { eventLargeWriteCases } from './events-large-writes.js';
import { eventLogCases } from './events.js';
import { filterCases } from './filters.js';
import { groupCrudCases } from './groups-crud.js';
import { groupFilterCases } from './groups-filters.js';
import { groupMembershipCases } from './groups-membership.js';
import { groupPagingCases } from './groups-paging.js';
import { keysetPagingCases } from './keyset-paging.js';
import { pagingCases } from './paging.js';
import { sortingCases } from './sorting.js';
import { subscriptionLeaseCases } from './subscriptions-leases.js';
import { subscriptionRecordCases } from './subscriptions-records.js';
import { tenancyCases } from './tenancy.js';
import { uniquenessCases } from './uniqueness.js';
import { userGroupsCases } from './users-groups.js';
import { versionCases } from './versions.js';

/**
 * Lists every store conformance case, in the order a runner should report them. Each has a
 * stable id (`group.what-it-checks`) that may be named in `skip`.
 */
export const storeConformanceCases: readonly StoreConformanceCase[] = [
  ...crudCases,
  ...copyCases,
  ...uniquenessCases,
  ...versionCases,
  ...tenancyCases,
  ...pagingCases,
  ...keysetPagingCases,
  ...filterCases,
  ...sortingCases,
  ...groupCrudCases,
  ...groupMembershipCases,
  ...groupFilterCases,
  ...groupPagingCases,
  ...userGroupsCases,
  ...eventLogCases,
  ...eventDeleteCases,
  ...eventLargeWriteCases,
  ...eventCursorCases,
  ...subscriptionLeaseCases,
  ...subscriptionRecordCases,
];
