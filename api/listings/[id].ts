import { registerDomainListeners } from '../../lib/domain-listeners.js';
import { IdParams } from '../../lib/http/common-schemas.js';
import { endpoint, route } from '../../lib/service-route.js';
import { getListing, updateListing } from '../../lib/listings/handlers.js';
import { ListingDeleteQuery, ListingUpdateBody, listingImagesForm } from '../../lib/listings/schema.js';
import { deleteListing } from '../../lib/listings/trash.js';

registerDomainListeners();

export default route({
  GET: endpoint('token', { params: IdParams }, getListing),
  PATCH: endpoint('token', { params: IdParams, body: ListingUpdateBody, form: listingImagesForm }, updateListing),
  DELETE: endpoint('token', { params: IdParams, query: ListingDeleteQuery }, deleteListing),
});
