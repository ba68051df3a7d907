import type * as v from 'valibot';
import type {
  AcknowledgementReply,
  ContentReply,
  DataReply,
  HealthReply,
  MessageReply,
  PageReply,
  Reply,
  StreamedReply,
} from './reply.js';

/** Envelope members beside `data` (a list's own paging, its totals), each with its view. */
type BesideViews = Record<string, v.GenericSchema>;
type NoBeside = Record<never, never>;

/** `data` in a view, with members beside it; a browser asking for `text/html` may get a page instead. */
interface DataAnswer<View extends v.GenericSchema, Beside extends BesideViews, OrHtml extends boolean> {
  kind: 'data';
  data: View;
  beside: Beside;
  htmlForBrowsers: OrHtml;
}

/** A page of a list of items in a view, with `pagination` always, or only when a page is asked for. */
interface PagesAnswer<Item extends v.GenericSchema, Paging extends 'always' | 'on-request'> {
  kind: 'pages';
  item: Item;
  pagination: Paging;
}

/** The answers outside the data envelope, each of one fixed shape. */
interface FixedReplies {
  message: MessageReply;
  acknowledgement: AcknowledgementReply;
  health: HealthReply;
  document: Reply<object>;
  html: ContentReply;
  asset: ContentReply;
  csv: StreamedReply;
  /** Never a success: the fallback of paths nothing serves. */
  none: Reply<never>;
}

interface FixedAnswer<Kind extends keyof FixedReplies> {
  kind: Kind;
}

/** What an endpoint's success answers: the document describes it, and it types the handler's reply. */
export type SuccessAnswer =
  | DataAnswer<v.GenericSchema, BesideViews, boolean>
  | PagesAnswer<v.GenericSchema, 'always' | 'on-request'>
  | FixedAnswer<keyof FixedReplies>;

/** The members beside `data`, as the handler gives them. */
export type BesideOutputs<Views extends BesideViews> = { [Name in keyof Views]: v.InferOutput<Views[Name]> };

/** The reply a handler may return for an answer: its `data` is the output of the declared view. */
export type ReplyOf<Answer extends SuccessAnswer> =
  Answer extends DataAnswer<infer View, infer Beside, infer OrHtml>
    ? DataReply<v.InferOutput<View>, BesideOutputs<Beside>> | (OrHtml extends true ? ContentReply : never)
    : Answer extends PagesAnswer<infer Item, infer Paging>
      ? PageReply<v.InferOutput<Item>> | (Paging extends 'on-request' ? DataReply<v.InferOutput<Item>[]> : never)
      : Answer extends FixedAnswer<infer Kind>
        ? FixedReplies[Kind]
        : never;

const fixed = <Kind extends keyof FixedReplies>(kind: Kind): FixedAnswer<Kind> => ({ kind });

/** The answers an endpoint declares. */
export const answers = {
  /** `data` in `view`, and the members `beside` it. */
  data: <View extends v.GenericSchema, Beside extends BesideViews = NoBeside>(view: View, beside?: Beside): DataAnswer<View, Beside, false> => ({
    kind: 'data',
    data: view,
    beside: beside ?? ({} as Beside),
    htmlForBrowsers: false,
  }),
  /** `data` in `view`, or, for a browser asking for `text/html`, the same as a page. */
  dataOrHtml: <View extends v.GenericSchema>(view: View): DataAnswer<View, NoBeside, true> => ({ kind: 'data', data: view, beside: {}, htmlForBrowsers: true }),
  /** A page of items in `item`'s view, with `pagination`. */
  pages: <Item extends v.GenericSchema>(item: Item): PagesAnswer<Item, 'always'> => ({ kind: 'pages', item, pagination: 'always' }),
  /** Items in `item`'s view, with `pagination` when a page is asked for. */
  pagesOnRequest: <Item extends v.GenericSchema>(item: Item): PagesAnswer<Item, 'on-request'> => ({ kind: 'pages', item, pagination: 'on-request' }),
  message: fixed('message'),
  acknowledgement: fixed('acknowledgement'),
  health: fixed('health'),
  document: fixed('document'),
  html: fixed('html'),
  asset: fixed('asset'),
  csv: fixed('csv'),
  none: fixed('none'),
};
