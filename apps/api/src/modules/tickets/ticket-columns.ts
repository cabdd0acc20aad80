/**
 * Every column of a ticket row the schema declares, named: `selectAll` would also
 * bring PostgreSQL's `search_doc` (a tsvector as long as the text) to every read.
 */
export const TICKET_COLUMNS = [
  't.id',
  't.name',
  't.description',
  't.area_id',
  't.project_id',
  't.category_id',
  't.priority_type_id',
  't.difficulty_id',
  't.status_id',
  't.stage',
  't.created_by',
  't.user_assigned_id',
  't.group_id',
  // What a list sorted by group orders by: the export's keyset reads it from the last row.
  't.group_sort',
  't.created_at',
  't.updated_at',
  't.sla_policy_id',
  't.first_response_due_at',
  't.resolution_due_at',
  // What a list sorted by a due date orders by: the export's keyset reads them from the last row.
  't.first_response_due_sort',
  't.resolution_due_sort',
  't.sla_at_risk_at',
  't.first_responded_at',
  't.resolved_at',
  't.sla_paused_minutes',
  't.sla_paused_at',
  't.sla_state',
] as const;
