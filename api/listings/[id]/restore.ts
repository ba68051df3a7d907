import { registerDomainListeners } from '../../../lib/domain-listeners.js';
import { IdParams } from '../../../lib/http/common-schemas.js';
import { answers } from '../../../lib/http/success-answer.js';
import { restoreListing } from '../../../lib/listings/trash.js';
import { ListingView } from '../../../lib/listings/view.js';
import { endpoint, route } from '../../../lib/service-route.js';

registerDomainListeners();

export default route({
  POST: endpoint({
    summary: 'Bring a listing back from the trash',
    access: 'token',
    schemas: { params: IdParams },
    answer: answers.data(ListingView),
    handle: restoreListing,
    errors: ['CONFLICT'],
    description: 'By an administrator or the listing\'s agent (another agent\'s listing is 404). The listing comes back as it was: status, stock, attributes, photos, and so its counts, search and place in every list. An AVAILABLE listing is posted to the channel again when posting is on. A listing that is not in the trash is 409; of two restores at once, one restores and the other is 409. A listing whose category was deleted while it was in the trash (`categoryId` null, `removedCategory` naming it) cannot come back: 409 naming the category.',
  }),
});
