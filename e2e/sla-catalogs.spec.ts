import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import {
  alwaysOpenCalendar,
  apiCreator,
  apiToken,
  choose,
  field,
  priorityWithPolicy,
  signInWithEmptyTray,
  uniqueLetters,
  untilSettled,
} from './support.ts';

/**
 * The SLA catalogues through their screens: a calendar with a split day and a holiday (the week
 * grid and the Spanish date on screen, a bad interval refused in Spanish), a policy with its
 * targets typed as hours and minutes, and the general list sorted by due date.
 */

test.beforeEach(async ({ page }) => {
  await signInWithEmptyTray(page, 'admin');
});

test('an administrator creates a calendar with a split day and a holiday, and sees its week grid', async ({ page }) => {
  const name = `Turno partido ${uniqueLetters()}`;
  await page.goto('/business-calendars');
  await page.getByRole('button', { name: 'Agregar' }).click();
  const dialog = page.getByRole('dialog', { name: 'Agregar calendario laboral' });
  await field(page, 'Nombre').fill(name);
  await choose(page, 'Zona horaria', 'America/Matamoros');

  // Monday: 09:00 to 14:00, then a second interval that first overlaps the morning.
  await dialog.getByLabel('Fin lunes 1').fill('14:00');
  await dialog.getByRole('button', { name: 'Agregar horario al lunes' }).click();
  await dialog.getByLabel('Inicio lunes 2').fill('13:00');
  await dialog.getByLabel('Fin lunes 2').fill('18:00');
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(dialog.getByText('Los horarios de un mismo día no pueden traslaparse.')).toBeVisible();
  await dialog.getByLabel('Inicio lunes 2').fill('19:00');
  await expect(dialog.getByText('La hora de fin debe ser posterior a la hora de inicio.')).toBeVisible();
  await dialog.getByLabel('Inicio lunes 2').fill('15:00');
  await expect(dialog.getByText('La hora de fin debe ser posterior a la hora de inicio.')).toBeHidden();

  // The week grid: Monday in two blocks, Tuesday in one, the weekend empty.
  const grid = dialog.getByRole('group', { name: 'Vista semanal del horario' });
  const monday = grid.getByRole('list', { name: 'Lunes' }).getByRole('listitem');
  await expect(monday).toHaveText(['09:00 a 14:00', '15:00 a 18:00']);
  await expect(grid.getByRole('list', { name: 'Martes' }).getByRole('listitem')).toHaveText(['09:00 a 18:00']);
  await expect(grid.getByRole('list', { name: 'Sábado' }).getByRole('listitem')).toHaveCount(0);

  // A holiday, shown as a Spanish date.
  await dialog.getByRole('button', { name: 'Agregar día festivo' }).click();
  await dialog.getByLabel('Fecha del día festivo 1').fill('2026-11-16');
  await dialog.getByLabel('Nombre del día festivo 1').fill('Revolución Mexicana');
  await expect(dialog.getByText('lunes, 16 de noviembre de 2026')).toBeVisible();

  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByText('Registro creado exitosamente.')).toBeVisible();
  await expect(dialog).toBeHidden();
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row).toContainText('America/Matamoros');
  await expect(row).toContainText('lun., mar., mié., jue., vie.');

  // Opened again: what was saved, in the grid and the holiday's date.
  await row.getByRole('button', { name: /^Editar/ }).click();
  const edit = page.getByRole('dialog', { name: 'Editar calendario laboral' });
  await expect(
    edit
      .getByRole('group', { name: 'Vista semanal del horario' })
      .getByRole('list', { name: 'Lunes' })
      .getByRole('listitem'),
  ).toHaveText(['09:00 a 14:00', '15:00 a 18:00']);
  await expect(edit.getByText('lunes, 16 de noviembre de 2026')).toBeVisible();
  await expect(edit.getByLabel('Nombre del día festivo 1')).toHaveValue('Revolución Mexicana');
});

test('an administrator creates an SLA policy with its targets in hours and minutes', async ({ page }) => {
  const letters = uniqueLetters();
  // A priority of its own: the demo ones already have their policy for any area.
  const { token } = await apiToken(page.request, 'admin');
  const created = await page.request.post('/api/priority-types/create', {
    headers: { authorization: `Bearer ${token}`, 'x-csrf-token': '' },
    data: { name: `Critica ${letters}` },
  });
  expect(created.status(), await created.text()).toBe(201);

  const name = `Critica ${letters}`;
  await page.goto('/sla-policies');
  await page.getByRole('button', { name: 'Agregar' }).click();
  const dialog = page.getByRole('dialog', { name: 'Agregar acuerdo de servicio' });
  await field(page, 'Nombre').fill(name);
  await choose(page, 'Prioridad', `Critica ${letters}`);
  await choose(page, 'Calendario', 'Horario corporativo');
  await dialog.getByLabel('Primera respuesta (tiempo hábil): horas').fill('0');
  await dialog.getByLabel('Primera respuesta (tiempo hábil): minutos').fill('0');
  await dialog.getByLabel('Resolución (tiempo hábil): horas').fill('8');
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(dialog.getByText('El objetivo debe ser de al menos 1 minuto.')).toBeVisible();
  await dialog.getByLabel('Primera respuesta (tiempo hábil): horas').fill('1');
  await dialog.getByLabel('Primera respuesta (tiempo hábil): minutos').fill('30');
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByText('Registro creado exitosamente.')).toBeVisible();

  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row).toContainText('Cualquiera');
  await expect(row).toContainText('Horario corporativo');
  await expect(row).toContainText('1 h 30 min');
  await expect(row).toContainText('8 h');
});

test('the general list sorts by the resolution due date, both ways, kept in the URL', async ({ page }) => {
  const word = uniqueLetters();
  const { token } = await apiToken(page.request, 'admin');
  const post = apiCreator(page.request, token);
  // Its own calendar, priorities and policies: what other tests do to the seeded ones does not matter here.
  const calendarId = await alwaysOpenCalendar(post, `Continuo ${word}`);
  const priorityWithTarget = (name: string, resolutionMinutes: number) =>
    priorityWithPolicy(post, `${name} ${word}`, calendarId, { firstResponseMinutes: 30, resolutionMinutes });
  const create = async (name: string, priorityTypeId: number) =>
    post('/api/tickets/create', {
      name,
      description: `Orden por vencimiento ${word}`,
      area_id: 1,
      project_id: 1,
      category_id: 1,
      priority_type_id: priorityTypeId,
      difficulty_id: 1,
      status_id: 1,
    });
  // Baja: 40 hours to resolve; Urgente: 4. Created Baja first.
  await create(`Baja ${word}`, await priorityWithTarget('Pausada', 40 * 60));
  await create(`Urgente ${word}`, await priorityWithTarget('Apremiante', 4 * 60));

  await page.goto('/general-tickets');
  await page.getByPlaceholder('Buscar...').fill(word);
  const rows = page.getByRole('row').filter({ hasText: word });
  await expect(rows).toHaveCount(2);
  await page.getByLabel('Ordenar por').selectOption({ label: 'Vence resolución' });
  await expect(page).toHaveURL(/sort=resolution_due_at(%3A|:)desc/);
  await expect(rows.first()).toContainText(`Baja ${word}`);
  await page.getByRole('button', { name: 'Orden descendente (cambiar a ascendente)' }).click();
  await expect(page).toHaveURL(/sort=resolution_due_at(%3A|:)asc/);
  await expect(rows.first()).toContainText(`Urgente ${word}`);
  await expect(rows.nth(1)).toContainText(`Baja ${word}`);

  // Kept in the URL: a reload shows the same order.
  await page.reload();
  await expect(page.getByLabel('Ordenar por')).toHaveValue('resolution_due_at');
  await expect(page.getByRole('row').filter({ hasText: word }).first()).toContainText(`Urgente ${word}`);
});

test('the calendar and policy forms have no serious or critical accessibility violation', async ({ page }) => {
  test.setTimeout(180_000);
  const serious = async () =>
    (
      await new AxeBuilder({ page })
        .include('[role="dialog"]')
        .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
        .analyze()
    ).violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({ id: v.id, nodes: v.nodes.map((n) => n.target.join(' ')).slice(0, 5) }));

  await page.goto('/business-calendars');
  await page.getByRole('button', { name: 'Agregar' }).click();
  const calendar = page.getByRole('dialog', { name: 'Agregar calendario laboral' });
  await calendar.getByRole('button', { name: 'Agregar día festivo' }).click();
  await calendar.getByLabel('Fecha del día festivo 1').fill('2026-12-25');
  await calendar.getByLabel('Nombre del día festivo 1').fill('Navidad');
  await expect(calendar.getByText('viernes, 25 de diciembre de 2026')).toBeVisible();
  await untilSettled(page);
  expect(await serious()).toEqual([]);
  await calendar.getByRole('button', { name: 'Cancelar' }).click();

  await page.goto('/sla-policies');
  await page.getByRole('button', { name: 'Agregar' }).click();
  await expect(page.getByRole('dialog', { name: 'Agregar acuerdo de servicio' })).toBeVisible();
  // Chosen first: the shared select's placeholder ('Seleccione una opción') is checked elsewhere.
  await choose(page, 'Prioridad', 'Urgente');
  await choose(page, 'Calendario', 'Horario corporativo');
  await untilSettled(page);
  expect(await serious()).toEqual([]);
});
