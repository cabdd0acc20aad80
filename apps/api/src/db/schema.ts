import type { ColumnType, Generated, GeneratedAlways, Insertable, Selectable } from 'kysely';
import type {
  AssignmentMode,
  MailInOutcome,
  MailRhythm,
  MailStatus,
  NotificationChannel,
  NotificationEvent,
  SavedViewList,
  SlaState,
  TicketEventKind,
  TicketStage,
} from '@portal/contract';

/** ISO-8601 text on SQLite, timestamptz on PostgreSQL; always read as an ISO string. */
type Timestamp = ColumnType<string, string | undefined, string>;
type Flag = number;

interface NamedCatalogTable {
  id: Generated<number>;
  name: string;
  status_id: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A group: a team with its way of handing out tickets. */
export interface GroupsTable extends NamedCatalogTable {
  assignment_mode: ColumnType<AssignmentMode, AssignmentMode | undefined, AssignmentMode>;
  assignment_cap: number | null;
}

/** Rotativa's place: the member who got the group's last automatic assignment (kept apart from the catalogue). */
export interface GroupRotationsTable {
  group_id: number;
  last_assigned_user_id: number | null;
}

export interface StatusesTable {
  id: number;
  name: string;
}

export interface RolesTable extends NamedCatalogTable {
  is_supervisor: Flag;
}

export type RoutesTable = NamedCatalogTable;

export interface SectionsTable extends NamedCatalogTable {
  route_id: number;
}

export interface RoutesPermissionTable {
  id: Generated<number>;
  route_id: number;
  role_id: number;
  status_id: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface SectionsPermissionTable {
  id: Generated<number>;
  section_id: number;
  role_id: number;
  r: Flag;
  w: Flag;
  u: Flag;
  d: Flag;
  status_id: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface TicketStatusesTable extends NamedCatalogTable {
  stage: TicketStage;
  /** While a ticket is in this status its SLA clock stops. */
  pauses_sla: Generated<number>;
  /** The Kanban column's WIP limit (null: none). */
  wip_limit: Generated<number | null>;
}

/** A business calendar; `week` and `holidays` are JSON text (the contract's ZWorkingWeek, ZHolidays). */
export interface BusinessCalendarsTable extends NamedCatalogTable {
  time_zone: string;
  week: string;
  holidays: Generated<string>;
}

export interface SlaPoliciesTable extends NamedCatalogTable {
  priority_type_id: number;
  /** Null: any area. */
  area_id: number | null;
  calendar_id: number;
  first_response_minutes: number;
  resolution_minutes: number;
}

/** One alert per ticket and threshold: due at `notify_at` (the calendar open), delivered at `sent_at`. */
export interface SlaAlertsTable {
  ticket_id: number;
  threshold: 'at_risk' | 'breached';
  notify_at: Timestamp;
  sent_at: ColumnType<string | null, string | null | undefined, string | null>;
}

/** The Tablero's SLA outcomes per decision day (db/ticket-report-derivations.ts). */
export interface TicketReportSlaDailyTable {
  day: string;
  area_id: number;
  project_id: number;
  shard: number;
  resolution_met: number;
  resolution_breached: number;
  response_met: number;
  response_breached: number;
}

/** Tickets not resolved at risk or overdue now, per area, project and state. */
export interface TicketReportSlaNowTable {
  area_id: number;
  project_id: number;
  sla_state: 'at_risk' | 'breached';
  shard: number;
  n: number;
}

export interface UsersTable {
  id: Generated<number>;
  name: string;
  last_name: string;
  second_last_name: string | null;
  username: string;
  email: string;
  password_hash: string;
  role_id: number;
  area_id: number | null;
  supervisor_id: number | null;
  branch: string | null;
  avatar_path: string | null;
  status_id: number;
  /** Tokens issued before this instant (unix milliseconds) are refused. */
  sessions_valid_after: ColumnType<number, number | undefined, number>;
  /** Ausente from this instant (null: present) until `absent_until` (null: until they come back). */
  absent_from: ColumnType<string | null, string | null | undefined, string | null>;
  absent_until: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface TicketsTable {
  id: Generated<number>;
  name: string;
  description: string;
  area_id: number;
  project_id: number;
  category_id: number;
  priority_type_id: number;
  difficulty_id: number;
  status_id: number;
  /**
   * The stage of `status_id`, kept on the row for the list indexes; the database derives it on
   * every insert and status update (migration 0017), so a writer need not give it.
   */
  stage: Generated<TicketStage>;
  created_by: number;
  user_assigned_id: number | null;
  /** The group the ticket belongs to (null: none). */
  group_id: number | null;
  /** The group, 0 for none: what a list sorted by group orders by (migration 0020). */
  group_sort: GeneratedAlways<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** The SLA (modules/sla): the policy applied, null when none applies. */
  sla_policy_id: Generated<number | null>;
  first_response_due_at: Generated<string | null>;
  resolution_due_at: Generated<string | null>;
  /** The due dates, year 9999 for none: what a list sorted by a due date orders by (migration 0035). */
  first_response_due_sort: GeneratedAlways<string>;
  resolution_due_sort: GeneratedAlways<string>;
  /** When the ticket becomes at risk (the alert sweep reads it). */
  sla_at_risk_at: Generated<string | null>;
  first_responded_at: Generated<string | null>;
  resolved_at: Generated<string | null>;
  /** Business minutes spent in pausing statuses, pauses that ended. */
  sla_paused_minutes: Generated<number>;
  /** The start of the pause under way. */
  sla_paused_at: Generated<string | null>;
  sla_state: Generated<SlaState>;
  // `sla_alerted` (0032), the last SLA threshold alerted, is read and written only by the alert
  // sweep's SQL (modules/sla/sla-alerts.repository.ts), so ticket reads never carry it.
}

/**
 * Each ticket's SLA clock columns, copied from its row by triggers in the same write, with the
 * indexes that read its state and alert level (migration 0041): the alert sweep's and the
 * lists' by state.
 */
export interface TicketSlaWatchTable {
  ticket_id: number;
  sla_state: SlaState;
  sla_alerted: number;
  sla_at_risk_at: string | null;
  resolution_due_at: string | null;
  resolved_at: string | null;
  sla_paused_at: string | null;
  resolution_due_sort: string;
  first_response_due_sort: string;
}

/** Per-stage ticket counters, maintained by triggers (db/ticket-derivations.ts). */
export interface TicketCountsTable {
  kind: number;
  user_id: number;
  stage: TicketStage;
  status_id: number;
  shard: number;
  n: number;
}

/** The dashboard's figures, maintained by triggers (db/ticket-report-derivations.ts). */
export interface TicketReportNowTable {
  area_id: number;
  project_id: number;
  stage: TicketStage;
  priority_type_id: number;
  /** The assignee; 0 for nobody. */
  user_id: number;
  /** The ticket id modulo REPORT_SHARDS: readers add the shards up. */
  shard: number;
  n: number;
}

/** `ticket_report_now` without the assignee: what the dashboard's backlog adds up. */
export type TicketReportBacklogTable = Omit<TicketReportNowTable, 'user_id'>;

export interface TicketReportDailyTable {
  /** `YYYY-MM-DD`, UTC. */
  day: string;
  area_id: number;
  project_id: number;
  /** The ticket id modulo REPORT_SHARDS: readers add the shards up. */
  shard: number;
  created: number;
  closed: number;
}

export interface TicketClosuresTable {
  ticket_id: number;
  closed_at: Timestamp;
  seconds: number;
  area_id: number;
  project_id: number;
  user_id: number;
}

/** A ticket's timeline, written in the transaction of each change. */
export interface TicketEventsTable {
  id: Generated<number>;
  ticket_id: number;
  user_id: number | null;
  kind: TicketEventKind;
  field: string | null;
  from_value: string | null;
  to_value: string | null;
  created_at: Timestamp;
}

export type TicketLinkKind = 'parent' | 'duplicate' | 'related';

export interface TicketLinksTable {
  id: Generated<number>;
  from_ticket_id: number;
  to_ticket_id: number;
  kind: TicketLinkKind;
  created_by: number | null;
  created_at: Timestamp;
}

/** A ticket list's saved query under a name (0030); `query` is JSON the lists' contract validates. */
export interface SavedViewsTable {
  id: Generated<number>;
  owner_id: number;
  name: string;
  list: SavedViewList;
  query: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** Referencias: a logistics reference's pattern. */
export interface ReferenceTypesTable {
  id: Generated<number>;
  name: string;
  pattern: string;
  example: string;
  status_id: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A reference type's pending or running re-extraction: the last ticket id done, and how far it is (migration 0037). */
export interface ReferenceReextractionsTable {
  type_id: number;
  after_id: number;
  done: number;
  total: number | null;
}

/** The roles a saved view is shared with. */
export interface SavedViewRolesTable {
  view_id: number;
  role_id: number;
}

/** A ticket's references, normalised (migration 0034). */
export interface TicketReferencesTable {
  ticket_id: number;
  type_id: number;
  value: string;
}

export interface ActivitiesTable {
  id: Generated<number>;
  name: string;
  ticket_id: number;
  user_id: number;
  status_id: number;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** The duplicate it was moved from by a merge (null when written on this ticket). */
  merged_from_ticket_id: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface TicketAttachmentsTable {
  id: Generated<number>;
  ticket_id: number;
  name: string;
  size: number;
  type: string;
  uploaded_by: number;
  created_at: Timestamp;
  /** The duplicate it was moved from by a merge (null when uploaded to this ticket). */
  merged_from_ticket_id: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface AttachmentChunksTable {
  attachment_id: number;
  seq: number;
  data: Buffer;
}

export interface NotificationsTable {
  id: Generated<number>;
  user_id: number;
  ticket_id: number | null;
  title: string;
  message: string;
  type: 'info' | 'success' | 'warning' | 'error';
  /** The user whose action caused it (migration 0009); null for older rows. */
  actor_id: ColumnType<number | null, number | null | undefined, number | null>;
  viewed: ColumnType<Flag, Flag | undefined, Flag>;
  visible: ColumnType<Flag, Flag | undefined, Flag>;
  created_at: Timestamp;
}

export interface PasswordResetCodesTable {
  id: Generated<number>;
  user_id: number;
  code_hash: string;
  expires_at: Timestamp;
  attempts: ColumnType<number, number | undefined, number>;
  reset_token_hash: string | null;
  reset_expires_at: Timestamp | null;
  used_at: Timestamp | null;
  created_at: Timestamp;
}

export interface RevokedTokensTable {
  jti: string;
  user_id: number;
  expires_at: number;
}

export interface AuditLogTable {
  id: Generated<number>;
  event: string;
  user_id: number | null;
  username: string | null;
  ip: string | null;
  detail: string | null;
  created_at: Timestamp;
}

export interface MailOutboxTable {
  id: Generated<number>;
  user_id: number | null;
  ticket_id: number | null;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string;
  message_id: string;
  /** JSON of the threading and reply headers (modules/mail/ticket-mail.ts `MailHeaders`). */
  headers: string;
  status: ColumnType<MailStatus | 'digest', MailStatus | 'digest' | undefined, MailStatus | 'digest'>;
  attempts: ColumnType<number, number | undefined, number>;
  next_attempt_at: Timestamp;
  lease_until: string | null;
  claim_token: string | null;
  last_error: string | null;
  created_at: Timestamp;
  sent_at: string | null;
}

/**
 * Mails of events whose recipient the database chose (an automatic assignee): written with the
 * event, composed into `mail_outbox` by the outbox worker (migration 0045).
 */
export interface MailRequestsTable {
  id: Generated<number>;
  user_id: number;
  ticket_id: number;
  event: NotificationEvent;
  message: string;
  detail: string | null;
  created_at: Timestamp;
}

/** Incoming messages by their Message-ID (migration 0033). */
export interface MailInboxTable {
  id: Generated<number>;
  message_id: string;
  from_address: string;
  subject: string;
  outcome: 'processing' | MailInOutcome;
  reason: string | null;
  ticket_id: number | null;
  created_at: Timestamp;
}

/** The mail-in poller's one row (id 1). */
export interface MailInStateTable {
  id: number;
  last_poll_at: string | null;
  last_error: string | null;
  last_error_at: string | null;
}

export interface NotificationPreferencesTable {
  user_id: number;
  event: NotificationEvent;
  channel: NotificationChannel;
}

export interface NotificationRhythmsTable {
  user_id: number;
  rhythm: MailRhythm;
}

/** A group's members (migration 0020). */
export interface GroupMembersTable {
  group_id: number;
  user_id: number;
  role: 'member' | 'lead';
  created_at: Timestamp;
}

/** Reglas de asignación: the first active rule matching a new ticket sets its group (migration 0022). */
export interface RoutingRulesTable {
  id: Generated<number>;
  name: string;
  position: number;
  area_id: number | null;
  category_id: number | null;
  project_id: number | null;
  priority_type_id: number | null;
  group_id: number;
  status_id: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface DB {
  statuses: StatusesTable;
  roles: RolesTable;
  routes: RoutesTable;
  sections: SectionsTable;
  routes_permission: RoutesPermissionTable;
  sections_permission: SectionsPermissionTable;
  areas: NamedCatalogTable;
  categories: NamedCatalogTable;
  projects: NamedCatalogTable;
  difficulties: NamedCatalogTable;
  groups: GroupsTable;
  group_rotations: GroupRotationsTable;
  reference_reextractions: ReferenceReextractionsTable;
  group_members: GroupMembersTable;
  routing_rules: RoutingRulesTable;
  priority_types: NamedCatalogTable;
  ticket_statuses: TicketStatusesTable;
  business_calendars: BusinessCalendarsTable;
  sla_policies: SlaPoliciesTable;
  sla_alerts: SlaAlertsTable;
  users: UsersTable;
  tickets: TicketsTable;
  ticket_counts: TicketCountsTable;
  /** Every word of the full-text index, so a searched prefix becomes whole words (db/ticket-derivations.ts). */
  ticket_words: { word: string };
  /** PostgreSQL: how many tickets hold each word of the text index, per shard of ids (db/ticket-derivations.ts). */
  ticket_word_counts: { word: string; shard: number; n: number };
  /** PostgreSQL: the words whose bitmaps `ticket_attr_blocks` keeps (migration 0050). */
  ticket_bitmap_words: { word: string };
  ticket_report_now: TicketReportNowTable;
  ticket_report_backlog: TicketReportBacklogTable;
  ticket_report_daily: TicketReportDailyTable;
  ticket_report_sla_daily: TicketReportSlaDailyTable;
  ticket_report_sla_now: TicketReportSlaNowTable;
  ticket_sla_watch: TicketSlaWatchTable;
  ticket_closures: TicketClosuresTable;
  ticket_events: TicketEventsTable;
  ticket_links: TicketLinksTable;
  saved_views: SavedViewsTable;
  saved_view_roles: SavedViewRolesTable;
  reference_types: ReferenceTypesTable;
  ticket_references: TicketReferencesTable;
  activities: ActivitiesTable;
  notifications: NotificationsTable;
  password_reset_codes: PasswordResetCodesTable;
  revoked_tokens: RevokedTokensTable;
  audit_log: AuditLogTable;
  ticket_attachments: TicketAttachmentsTable;
  attachment_chunks: AttachmentChunksTable;
  mail_outbox: MailOutboxTable;
  mail_requests: MailRequestsTable;
  mail_inbox: MailInboxTable;
  mail_in_state: MailInStateTable;
  notification_preferences: NotificationPreferencesTable;
  notification_rhythms: NotificationRhythmsTable;
}

export type CatalogTableName =
  | 'areas'
  | 'categories'
  | 'projects'
  | 'difficulties'
  | 'groups'
  | 'priority_types'
  | 'ticket_statuses'
  | 'roles'
  | 'routes';

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
