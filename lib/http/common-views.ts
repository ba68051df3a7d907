import * as v from 'valibot';
import { roleEnum } from '../db/schema.js';

/** A stored moment: a `Date` in the presenters, ISO 8601 text in the JSON answer. */
export const Timestamp = v.date();

/** A moment already written as ISO 8601 text. */
export const IsoTimestamp = v.pipe(v.string(), v.isoTimestamp());

export const RecordId = v.pipe(v.string(), v.uuid());

/** An account's role, as the users table's enum holds it. */
export const RoleView = v.picklist(roleEnum.enumValues);

/** What a delete answers: the id of the record that went. */
export const DeletedView = v.object({ id: RecordId });

export type DeletedView = v.InferOutput<typeof DeletedView>;

/** The value of a free-form JSON field, as stored. */
export const JsonObject = v.record(v.string(), v.unknown());
