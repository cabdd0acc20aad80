import '@mantine/charts/styles.css';
import { BarChart, DonutChart } from '@mantine/charts';
import { Card, Grid, Group, SimpleGrid, Skeleton, Stack, Text, TextInput } from '@mantine/core';
import { REPORT_DEFAULT_DAYS, REPORT_MAX_DAYS, type TReportSummary } from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { ListHeader } from '@/components/ui/list-header.tsx';
import { LoadErrorNotice } from '@/components/ui/load-error-notice.tsx';
import { SelectField, toSelectOptions } from '@/components/ui/select-field.tsx';
import { optionsQuery } from '@/lib/resource-api.ts';
import { summaryQuery, type SummaryParams } from '../api/dashboard-api.ts';
import {
  addDays,
  formatCount,
  formatDuration,
  formatLongDay,
  formatRate,
  formatShortDay,
  hoursOf,
  localDay,
  onTimeRate,
  topWithOthers,
} from '../format.ts';
import { ChartCard, ExportCsvButton, FigureTable, sortRows, type FigureColumn, type SortState } from './chart-card.tsx';

type Summary = TReportSummary;
type Agent = Summary['agents'][number];
type Named = { name: string; count: number };

const stageNames = { open: 'Abiertos', started: 'En proceso' } as const;
const countColumn = (header: string): FigureColumn<Named> => ({
  header,
  value: (r) => r.count,
  render: (r) => formatCount(r.count),
  numeric: true,
});
const nameColumn = (header: string): FigureColumn<Named> => ({ header, value: (r) => r.name });

/** The range's validation, as the API words it. */
function rangeError(from: string, to: string): string | null {
  if (!from || !to) return 'Indica las dos fechas.';
  if (from > to) return 'La fecha inicial debe ser anterior o igual a la fecha final.';
  const days = (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000 + 1;
  if (days > REPORT_MAX_DAYS) return `El rango no puede superar ${formatCount(REPORT_MAX_DAYS)} días.`;
  return null;
}

/** /dashboard 'Tablero' (Reportes): flow, backlog and each agent's load, from the maintained figures. */
export default function DashboardPage() {
  const [initial] = useState(() => {
    const today = localDay();
    return { from: addDays(today, -(REPORT_DEFAULT_DAYS - 1)), to: today, areaId: '', projectId: '' };
  });
  const [form, setForm] = useState<SummaryParams>(initial);
  /** The last valid choice: what the figures show while the form is being corrected. */
  const [params, setParams] = useState<SummaryParams>(initial);
  const { from, to, areaId, projectId } = form;
  const error = rangeError(from, to);
  const update = (patch: Partial<SummaryParams>) => {
    const next = { ...form, ...patch };
    setForm(next);
    if (!rangeError(next.from, next.to)) setParams(next);
  };

  const summary = useQuery(summaryQuery(params));
  const areas = useQuery(optionsQuery('areas'));
  const projects = useQuery(optionsQuery('projects'));
  const all = (label: string) => [{ value: '', label }];
  const data = summary.data;
  const fileSuffix = `${params.from}-a-${params.to}`;

  return (
    <Stack gap="md">
      <ListHeader title="Tablero">
        <Group gap="sm" align="flex-start" wrap="wrap">
          <TextInput
            type="date"
            label="Desde"
            value={from}
            max={to || undefined}
            onChange={(e) => update({ from: e.currentTarget.value })}
            error={error && error !== 'Indica las dos fechas.' ? error : !from ? 'Indica la fecha.' : undefined}
            w={160}
          />
          <TextInput
            type="date"
            label="Hasta"
            value={to}
            min={from || undefined}
            onChange={(e) => update({ to: e.currentTarget.value })}
            error={!to ? 'Indica la fecha.' : undefined}
            w={160}
          />
          <div style={{ width: 200 }}>
            <SelectField
              label="Área"
              value={areaId}
              onChange={(value) => update({ areaId: value })}
              options={[...all('Todas las áreas'), ...toSelectOptions(areas.data ?? [])]}
              isLoading={areas.isPending}
            />
          </div>
          <div style={{ width: 220 }}>
            <SelectField
              label="Proyecto"
              value={projectId}
              onChange={(value) => update({ projectId: value })}
              options={[...all('Todos los proyectos'), ...toSelectOptions(projects.data ?? [])]}
              isLoading={projects.isPending}
            />
          </div>
        </Group>
      </ListHeader>

      <Text size="sm" c="dimmed" aria-live="polite">
        {data
          ? `Del ${formatLongDay(data.from)} al ${formatLongDay(data.to)} (días en hora UTC). Las cifras "ahora" cuentan los tickets tal como están hoy.`
          : 'Cargando cifras...'}
      </Text>

      <LoadErrorNotice error={summary.error} onRetry={() => void summary.refetch()} />

      {!data ? (
        summary.isError ? null : (
          <DashboardSkeleton />
        )
      ) : (
        <Stack gap="md" style={{ opacity: summary.isPlaceholderData ? 0.6 : 1, transition: 'opacity 120ms' }}>
          <Headline data={data} />
          <WeeklyCard data={data} fileSuffix={fileSuffix} />
          <SlaWeeklyCard data={data} fileSuffix={fileSuffix} />
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            <StageCard data={data} fileSuffix={fileSuffix} />
            <PriorityCard data={data} fileSuffix={fileSuffix} />
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            <RankCard
              title="Pendientes por área"
              column="Área"
              fileName={`tablero-pendientes-por-area-${fileSuffix}`}
              items={data.open_by_area}
              color="brand.6"
            />
            <RankCard
              title="Pendientes por proyecto"
              column="Proyecto"
              fileName={`tablero-pendientes-por-proyecto-${fileSuffix}`}
              items={data.open_by_project}
              color="grape.6"
            />
          </SimpleGrid>
          <AgentsCard agents={data.agents} fileSuffix={fileSuffix} />
        </Stack>
      )}
    </Stack>
  );
}

function DashboardSkeleton() {
  return (
    <Stack gap="md" aria-hidden>
      <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }}>
        {Array.from({ length: 6 }, (_, i) => (
          <Skeleton key={i} height={88} radius="md" />
        ))}
      </SimpleGrid>
      <Skeleton height={320} radius="md" />
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Skeleton height={280} radius="md" />
        <Skeleton height={280} radius="md" />
      </SimpleGrid>
    </Stack>
  );
}

function Headline({ data }: { data: Summary }) {
  const { totals } = data;
  const figures = [
    { label: 'Abiertos ahora', value: formatCount(totals.open_now), color: 'blue.8' },
    { label: 'En proceso ahora', value: formatCount(totals.started_now), color: '#7a4d00' },
    { label: 'Sin asignar ahora', value: formatCount(totals.unassigned_now), color: 'red.8' },
    { label: 'Creados en el periodo', value: formatCount(totals.created) },
    { label: 'Cerrados en el periodo', value: formatCount(totals.closed), color: 'teal.8' },
    { label: 'Mediana de cierre', value: formatDuration(totals.median_close_seconds) },
    { label: 'Por vencer ahora', value: formatCount(totals.sla_at_risk_now), color: 'orange.9' },
    { label: 'Vencidos ahora', value: formatCount(totals.sla_breached_now), color: 'red.9' },
  ];
  return (
    <SimpleGrid cols={{ base: 2, sm: 4, lg: 8 }} role="list" aria-label="Cifras principales">
      {figures.map((f) => (
        <Card key={f.label} withBorder radius="md" padding="sm" role="listitem">
          <Text size="xs" c="dimmed" fw={500}>
            {f.label}
          </Text>
          <Text fw={700} size="xl" c={f.color} style={{ fontVariantNumeric: 'tabular-nums' }}>
            {f.value}
          </Text>
        </Card>
      ))}
    </SimpleGrid>
  );
}

type Week = Summary['weekly'][number];
const weekLabel = (w: Week) =>
  w.days < 7 ? `${formatShortDay(w.week_start)} (${w.days} d)` : formatShortDay(w.week_start);

function WeeklyCard({ data, fileSuffix }: { data: Summary; fileSuffix: string }) {
  const rows = data.weekly;
  const columns: FigureColumn<Week>[] = [
    { header: 'Semana del', value: (w) => w.week_start, render: (w) => formatLongDay(w.week_start) },
    { header: 'Días', value: (w) => w.days, numeric: true },
    { header: 'Creados', value: (w) => w.created, render: (w) => formatCount(w.created), numeric: true },
    { header: 'Cerrados', value: (w) => w.closed, render: (w) => formatCount(w.closed), numeric: true },
  ];
  const chartData = useMemo(
    () => rows.map((w) => ({ semana: weekLabel(w), created: w.created, closed: w.closed })),
    [rows],
  );
  return (
    <ChartCard
      title="Creados y cerrados por semana"
      description="Semanas de lunes a domingo; la primera y la última, recortadas al periodo."
      fileName={`tablero-semanal-${fileSuffix}`}
      columns={columns}
      rows={rows}
      chart={
        <BarChart
          h={300}
          data={chartData}
          dataKey="semana"
          withLegend
          legendProps={{ verticalAlign: 'bottom' }}
          valueFormatter={formatCount}
          series={[
            { name: 'created', label: 'Creados', color: 'brand.5' },
            { name: 'closed', label: 'Cerrados', color: 'teal.6' },
          ]}
          tickLine="y"
          xAxisProps={{ interval: 'preserveStartEnd', minTickGap: 12 }}
        />
      }
    />
  );
}

type SlaWeek = Summary['sla_weekly'][number];

/** Outcomes of the SLAs per week: resolution and first response, on time and late, and the on-time rate. */
function SlaWeeklyCard({ data, fileSuffix }: { data: Summary; fileSuffix: string }) {
  const rows = data.sla_weekly;
  const resolutionRate = (w: SlaWeek) => onTimeRate(w.resolution_met, w.resolution_breached);
  const responseRate = (w: SlaWeek) => onTimeRate(w.response_met, w.response_breached);
  const count = (header: string, value: (w: SlaWeek) => number): FigureColumn<SlaWeek> => ({
    header,
    value,
    render: (w) => formatCount(value(w)),
    numeric: true,
  });
  const columns: FigureColumn<SlaWeek>[] = [
    { header: 'Semana del', value: (w) => w.week_start, render: (w) => formatLongDay(w.week_start) },
    count('Resolución a tiempo', (w) => w.resolution_met),
    count('Resolución vencida', (w) => w.resolution_breached),
    {
      header: 'Resolución a tiempo (%)',
      value: resolutionRate,
      render: (w) => formatRate(resolutionRate(w)),
      numeric: true,
    },
    count('Primera respuesta a tiempo', (w) => w.response_met),
    count('Primera respuesta tardía', (w) => w.response_breached),
    {
      header: 'Primera respuesta a tiempo (%)',
      value: responseRate,
      render: (w) => formatRate(responseRate(w)),
      numeric: true,
    },
  ];
  const chartData = useMemo(
    () =>
      rows.map((w) => ({
        semana: formatShortDay(w.week_start),
        resolution: onTimeRate(w.resolution_met, w.resolution_breached),
        response: onTimeRate(w.response_met, w.response_breached),
      })),
    [rows],
  );
  const hasOutcomes = rows.some((w) => w.resolution_met + w.resolution_breached + w.response_met + w.response_breached);
  return (
    <ChartCard
      title="SLA a tiempo por semana"
      description="Resoluciones a tiempo el día en que se resolvieron y vencidas el día en que vencieron; primeras respuestas una vez dadas."
      fileName={`tablero-sla-semanal-${fileSuffix}`}
      columns={columns}
      rows={hasOutcomes ? rows : []}
      chart={
        <BarChart
          h={260}
          data={chartData}
          dataKey="semana"
          withLegend
          legendProps={{ verticalAlign: 'bottom' }}
          valueFormatter={(v) => formatRate(v)}
          yAxisProps={{ domain: [0, 100] }}
          series={[
            { name: 'resolution', label: 'Resolución a tiempo (%)', color: 'teal.6' },
            { name: 'response', label: 'Primera respuesta a tiempo (%)', color: 'brand.5' },
          ]}
          tickLine="y"
          xAxisProps={{ interval: 'preserveStartEnd', minTickGap: 12 }}
        />
      }
    />
  );
}

function StageCard({ data, fileSuffix }: { data: Summary; fileSuffix: string }) {
  const rows: Named[] = data.backlog_by_stage.map((s) => ({ name: stageNames[s.stage], count: s.count }));
  const colors = { open: 'blue.6', started: 'yellow.6' } as const;
  const total = rows.reduce((sum, r) => sum + r.count, 0);
  return (
    <ChartCard
      title="Pendientes por etapa"
      description="Tickets sin cerrar, ahora."
      fileName={`tablero-pendientes-por-etapa-${fileSuffix}`}
      columns={[nameColumn('Etapa'), countColumn('Tickets')]}
      rows={total === 0 ? [] : rows}
      chart={
        <Group justify="center">
          <DonutChart
            size={200}
            thickness={28}
            withLabelsLine={false}
            withTooltip
            valueFormatter={formatCount}
            chartLabel={formatCount(total)}
            data={data.backlog_by_stage.map((s) => ({
              name: stageNames[s.stage],
              value: s.count,
              color: colors[s.stage],
            }))}
          />
          <Stack gap={4}>
            {data.backlog_by_stage.map((s) => (
              <Group key={s.stage} gap={6}>
                <span
                  aria-hidden
                  style={{
                    width: 10,
                    height: 10,
                    borderRadius: 2,
                    background: `var(--mantine-color-${colors[s.stage].replace('.', '-')})`,
                  }}
                />
                <Text size="sm">
                  {stageNames[s.stage]}: {formatCount(s.count)}
                </Text>
              </Group>
            ))}
          </Stack>
        </Group>
      }
    />
  );
}

function PriorityCard({ data, fileSuffix }: { data: Summary; fileSuffix: string }) {
  const rows: Named[] = data.backlog_by_priority;
  return (
    <ChartCard
      title="Pendientes por prioridad"
      description="Tickets sin cerrar, ahora."
      fileName={`tablero-pendientes-por-prioridad-${fileSuffix}`}
      columns={[nameColumn('Prioridad'), countColumn('Tickets')]}
      rows={rows.every((r) => r.count === 0) ? [] : rows}
      chart={
        <BarChart
          h={240}
          data={rows.map((r) => ({ prioridad: r.name, count: r.count }))}
          dataKey="prioridad"
          valueFormatter={formatCount}
          series={[{ name: 'count', label: 'Tickets', color: 'orange.6' }]}
          tickLine="y"
        />
      }
    />
  );
}

function RankCard({
  title,
  column,
  fileName,
  items,
  color,
}: {
  title: string;
  column: string;
  fileName: string;
  items: Named[];
  color: string;
}) {
  const rows = topWithOthers(items);
  return (
    <ChartCard
      title={title}
      description="Tickets sin cerrar, ahora: los 10 con más y 'Otros'."
      fileName={fileName}
      columns={[nameColumn(column), countColumn('Tickets')]}
      rows={rows}
      chart={
        <BarChart
          h={Math.max(160, rows.length * 30 + 40)}
          data={rows.map((r) => ({ nombre: r.name, count: r.count }))}
          dataKey="nombre"
          orientation="vertical"
          valueFormatter={formatCount}
          yAxisProps={{ width: 150 }}
          series={[{ name: 'count', label: 'Tickets', color }]}
          tickLine="x"
        />
      }
    />
  );
}

const agentColumns: FigureColumn<Agent>[] = [
  { header: 'Agente', value: (a) => a.name },
  {
    header: 'Asignados ahora',
    value: (a) => a.assigned_now,
    render: (a) => formatCount(a.assigned_now),
    numeric: true,
  },
  { header: 'Cerrados en el periodo', value: (a) => a.closed, render: (a) => formatCount(a.closed), numeric: true },
  {
    header: 'Mediana de cierre',
    csvHeader: 'Mediana de cierre (horas)',
    value: (a) => hoursOf(a.median_close_seconds),
    render: (a) => formatDuration(a.median_close_seconds),
    numeric: true,
  },
];

function AgentsCard({ agents, fileSuffix }: { agents: Agent[]; fileSuffix: string }) {
  const [sort, setSort] = useState<SortState>({ column: 1, direction: 'descending' });
  const rows = useMemo(() => sortRows(agents, agentColumns, sort), [agents, sort]);
  const chartRows = rows.slice(0, 15);
  return (
    <Card withBorder radius="md" padding="md" component="section" aria-labelledby="agents-title">
      <Group justify="space-between" mb="sm">
        <Stack gap={0}>
          <Text component="h3" fw={650} size="md" id="agents-title" m={0}>
            Por agente
          </Text>
          <Text size="xs" c="dimmed">
            Asignados ahora (sin cerrar), cerrados en el periodo y su mediana de cierre. Ordena con los encabezados.
          </Text>
        </Stack>
        <ExportCsvButton
          fileName={`tablero-agentes-${fileSuffix}.csv`}
          columns={agentColumns}
          rows={rows}
          label="Por agente"
        />
      </Group>
      <Grid gap="md">
        <Grid.Col span={{ base: 12, lg: 5 }}>
          {chartRows.length === 0 ? (
            <Text size="sm" c="dimmed" py="xl" ta="center">
              Sin datos en este periodo.
            </Text>
          ) : (
            <div
              role="img"
              aria-label="Asignados ahora y cerrados en el periodo por agente; las cifras están en la tabla."
            >
              <BarChart
                h={Math.max(200, chartRows.length * 36 + 60)}
                data={chartRows.map((a) => ({ agente: a.name, assigned: a.assigned_now, closed: a.closed }))}
                dataKey="agente"
                orientation="vertical"
                withLegend
                legendProps={{ verticalAlign: 'bottom' }}
                valueFormatter={formatCount}
                yAxisProps={{ width: 140 }}
                series={[
                  { name: 'assigned', label: 'Asignados ahora', color: 'brand.5' },
                  { name: 'closed', label: 'Cerrados en el periodo', color: 'teal.6' },
                ]}
                tickLine="x"
              />
            </div>
          )}
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 7 }}>
          <FigureTable caption="Por agente" columns={agentColumns} rows={rows} sortable sort={sort} onSort={setSort} />
        </Grid.Col>
      </Grid>
    </Card>
  );
}
