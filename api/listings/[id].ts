import '../../lib/listing-event-listeners.js';
import { IdParams } from '../../lib/http/common-schemas.js';
import { endpoint, route } from '../../lib/service-route.js';
import { deleteListing, getListing, updateListing } from '../../lib/listings/handlers.js';
import { ListingUpdateBody, listingImagesForm } from '../../lib/listings/schema.js';

export default route({
  GET: endpoint('token', { params: IdParams }, getListing),
  PATCH: endpoint('token', { params: IdParams, body: ListingUpdateBody, form: listingImagesForm }, updateListing),
  DELETE: endpoint('token', { params: IdParams }, deleteListing),
});
