import type { Resource } from '../resource.js';
import { resource as account } from './account/routes.js';
import { resource as actions } from './actions/routes.js';
import { resource as alertPolicies } from './alert-policies/routes.js';
import { resource as backupPolicies } from './backup-policies/routes.js';
import { resource as catalog } from './catalog/routes.js';
import { resource as cdnEndpoints } from './cdn-endpoints/routes.js';
import { resource as certificates } from './certificates/routes.js';
import { resource as destroyAssociated } from './destroy-associated/routes.js';
import { resource as domains } from './domains/routes.js';
import { resource as dropletActions } from './droplet-actions/routes.js';
import { resource as droplets } from './droplets/routes.js';
import { resource as firewalls } from './firewalls/routes.js';
import { resource as imageActions } from './image-actions/routes.js';
import { resource as images } from './images/routes.js';
import { imageWrites } from './images/writes.js';
import { resource as keys } from './keys/routes.js';
import { resource as loadBalancers } from './load-balancers/routes.js';
import { resource as oneClicks } from './one-clicks/routes.js';
import { resource as projects } from './projects/routes.js';
import { resource as reports } from './reports/routes.js';
import { resource as reservedIps } from './reserved-ips/routes.js';
import { resource as snapshots } from './snapshots/routes.js';
import { resource as spacesKeys } from './spaces-keys/routes.js';
import { resource as tags } from './tags/routes.js';
import { resource as volumeActions } from './volume-actions/routes.js';
import { resource as volumeSnapshots } from './volume-snapshots/routes.js';
import { resource as volumes } from './volumes/routes.js';
import { resource as vpcs } from './vpcs/routes.js';

/** Every resource the API serves, one line each; the service's routes plugin registers them in this order. */
export const resources: Resource[] = [
  droplets,
  dropletActions,
  catalog,
  images,
  actions,
  account,
  keys,
  tags,
  volumes,
  volumeActions,
  volumeSnapshots,
  snapshots,
  firewalls,
  domains,
  certificates,
  loadBalancers,
  cdnEndpoints,
  alertPolicies,
  spacesKeys,
  oneClicks,
  vpcs,
  projects,
  reservedIps,
  backupPolicies,
  reports,
  destroyAssociated,
  imageWrites,
  imageActions,
];
