import * as v from 'valibot';
import { AuditEntryView } from '../audit/view.js';
import { AgentCodeCheckView, AgentCodeView, AgentView, CreatedAgentCodeView, ProfileView, SignInView, SignUpView } from '../auth/view.js';
import { CategoryView, SeedView } from '../categories/view.js';
import { AssetStatsView, CommissionListingView, CommissionSummaryView } from '../commissions/view.js';
import { SweepView } from '../cron/view.js';
import { ServiceInfoView } from '../docs/view.js';
import { DeletedView } from '../http/common-views.js';
import { ImportReportView, ListingView } from '../listings/view.js';
import { UploadTicketView } from '../media/upload-ticket-view.js';
import { MarkedReadView, NotificationPaging, NotificationView } from '../notifications/view.js';
import { SettingsView } from '../settings/view.js';
import { FilterOptionsTotals, FilterOptionsView, PublicListingDetailView, PublicListingView, SuggestionView } from '../storefront/view.js';
import {
  ConfigDeletedView,
  ConfigView,
  LogView,
  MessageDeletedView,
  MessageEditedView,
  MessengerInfoView,
  PostingHealthView,
  PublicBotView,
  TriggeredView,
  WebhookView,
} from '../syndication/view.js';

/** What an operation's success answer carries: `data` (a list's item, when it pages) and members beside it. */
export interface AnswerShape {
  data: v.GenericSchema;
  /** Envelope members beside `data` (a list's own paging, totals). */
  beside?: Record<string, v.GenericSchema>;
}

/**
 * The view each operation answers in `data`: the same valibot schemas its presenters are typed by,
 * so the document describes what the code returns. Keyed as OPERATION_NOTES is; a paginated
 * operation names its item.
 */
export const ANSWERS: Record<string, AnswerShape> = {
  'GET /api': { data: ServiceInfoView },

  'POST /api/auth/register': { data: SignUpView },
  'POST /api/auth/login': { data: SignInView },
  'GET /api/auth/me': { data: ProfileView },
  'PUT /api/auth/me': { data: ProfileView },
  'POST /api/auth/verify-agent-code': { data: AgentCodeCheckView },
  'GET /api/auth/agent-codes': { data: AgentCodeView },
  'POST /api/auth/agent-codes': { data: CreatedAgentCodeView },
  'DELETE /api/auth/agent-codes/:id': { data: DeletedView },
  'GET /api/auth/agents': { data: AgentView },
  'DELETE /api/auth/agents/:id': { data: DeletedView },

  'GET /api/categories': { data: v.array(CategoryView) },
  'POST /api/categories': { data: CategoryView },
  'GET /api/categories/:id': { data: CategoryView },
  'PATCH /api/categories/:id': { data: CategoryView },
  'DELETE /api/categories/:id': { data: DeletedView },
  'GET /api/admin/seed-categories': { data: SeedView },
  'GET /api/admin/audit': { data: AuditEntryView },

  'GET /api/listings': { data: ListingView },
  'POST /api/listings': { data: ListingView },
  'GET /api/listings/:id': { data: ListingView },
  'PATCH /api/listings/:id': { data: ListingView },
  'DELETE /api/listings/:id': { data: DeletedView },
  'POST /api/listings/:id/restore': { data: ListingView },
  'POST /api/listings/import': { data: ImportReportView },
  'POST /api/uploads/signature': { data: UploadTicketView },

  'GET /api/public/listings': { data: PublicListingView },
  'GET /api/public/listings/:id': { data: PublicListingDetailView },
  'GET /api/public/filter-options': { data: FilterOptionsView, beside: FilterOptionsTotals },
  'GET /api/public/suggest': { data: v.array(SuggestionView) },
  'GET /api/public/messenger-bot': { data: PublicBotView },
  'GET /api/cron/sweep': { data: SweepView },

  'GET /api/syndication/config': { data: v.array(ConfigView) },
  'POST /api/syndication/config': { data: ConfigView },
  'GET /api/syndication/config/:platform': { data: ConfigView },
  'DELETE /api/syndication/config/:platform': { data: ConfigDeletedView },
  'GET /api/syndication/messenger/info': { data: MessengerInfoView },
  'POST /api/syndication/messenger/setup-webhook': { data: WebhookView },
  'GET /api/syndication/messenger/webhook-info': { data: WebhookView },
  'POST /api/syndication/delete-message/:messageId': { data: MessageDeletedView },
  'POST /api/syndication/edit-message/:messageId': { data: MessageEditedView },
  'GET /api/syndication/health': { data: PostingHealthView },
  'GET /api/syndication/logs': { data: LogView },
  'POST /api/syndication/trigger/:listingId': { data: TriggeredView },
  'POST /api/syndication/retry/:id': { data: LogView },

  'GET /api/notifications': { data: v.array(NotificationView), beside: NotificationPaging },
  'PUT /api/notifications/read-all': { data: MarkedReadView },
  'PUT /api/notifications/:id/read': { data: NotificationView },

  'GET /api/commissions/asset-stats': { data: AssetStatsView },
  'GET /api/commissions/summary': { data: CommissionSummaryView },
  'GET /api/commissions/listings': { data: CommissionListingView },
  'PATCH /api/commissions/listing/:id': { data: CommissionListingView },

  'GET /api/settings': { data: SettingsView },
  'PUT /api/settings': { data: SettingsView },
};
