import type { AttachmentType, TAttachment } from '@portal/contract';

/** A stored file as read from the database; the service adds what the caller may do with it. */
export type AttachmentRow = Omit<TAttachment, 'can_delete'>;
import type { Kysely } from 'kysely';
import { nowIso, type Database } from '../../db/database.ts';
import type { DB } from '../../db/schema.ts';

/** Files are stored and read in chunks of this size: one chunk is all a request holds in memory. */
export const ATTACHMENT_CHUNK_BYTES = 256 * 1024;

export interface NewAttachment {
  ticketId: number;
  name: string;
  size: number;
  type: AttachmentType;
  uploadedBy: number;
}

export function createAttachmentsRepository({ db, dialect }: Database) {
  const withUploader = (trx: Kysely<DB> = db) =>
    trx
      .selectFrom('ticket_attachments as a')
      .innerJoin('users as u', 'u.id', 'a.uploaded_by')
      .select([
        'a.id',
        'a.ticket_id',
        'a.name',
        'a.size',
        'a.type',
        'a.created_at',
        'a.uploaded_by',
        'a.merged_from_ticket_id',
        'u.name as uploader_name',
        'u.last_name as uploader_last_name',
      ]);
  type Row = NonNullable<Awaited<ReturnType<ReturnType<typeof withUploader>['executeTakeFirst']>>>;
  const toAttachment = (row: Row): AttachmentRow => ({
    id: row.id,
    ticket_id: row.ticket_id,
    name: row.name,
    size: Number(row.size),
    type: row.type as AttachmentType,
    uploaded_by: { id: row.uploaded_by, name: `${row.uploader_name} ${row.uploader_last_name}`.trim() },
    created_at: row.created_at,
    merged_from_ticket_id: row.merged_from_ticket_id,
  });

  return {
    async listOfTicket(ticketId: number, trx: Kysely<DB> = db): Promise<AttachmentRow[]> {
      const rows = await withUploader(trx).where('a.ticket_id', '=', ticketId).orderBy('a.id').execute();
      return rows.map(toAttachment);
    },

    async findById(id: number): Promise<AttachmentRow | undefined> {
      const row = await withUploader().where('a.id', '=', id).executeTakeFirst();
      return row && toAttachment(row);
    },

    async countOfTicket(ticketId: number, trx: Kysely<DB> = db): Promise<number> {
      const row = await trx
        .selectFrom('ticket_attachments')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('ticket_id', '=', ticketId)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /**
     * Serializes uploads to one ticket inside a transaction, so two at once cannot
     * pass the per-ticket limit together (SQLite already runs one writer at a time).
     */
    async lockTicket(ticketId: number, trx: Kysely<DB>): Promise<boolean> {
      let query = trx.selectFrom('tickets').select('id').where('id', '=', ticketId);
      if (dialect === 'postgres') query = query.forUpdate();
      return (await query.executeTakeFirst()) !== undefined;
    },

    async insert(file: NewAttachment, trx: Kysely<DB>): Promise<number> {
      const row = await trx
        .insertInto('ticket_attachments')
        .values({
          ticket_id: file.ticketId,
          name: file.name,
          size: file.size,
          type: file.type,
          uploaded_by: file.uploadedBy,
          created_at: nowIso(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },

    async insertChunk(attachmentId: number, seq: number, data: Buffer, trx: Kysely<DB>): Promise<void> {
      await trx.insertInto('attachment_chunks').values({ attachment_id: attachmentId, seq, data }).execute();
    },

    /** One chunk of a file's bytes, or undefined past its end. */
    async chunk(attachmentId: number, seq: number): Promise<Buffer | undefined> {
      const row = await db
        .selectFrom('attachment_chunks')
        .select('data')
        .where('attachment_id', '=', attachmentId)
        .where('seq', '=', seq)
        .executeTakeFirst();
      return row?.data;
    },

    async delete(id: number): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('attachment_chunks').where('attachment_id', '=', id).execute();
        await trx.deleteFrom('ticket_attachments').where('id', '=', id).execute();
      });
    },
  };
}
export type AttachmentsRepository = ReturnType<typeof createAttachmentsRepository>;
