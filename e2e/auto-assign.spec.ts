import { expect, test, type Browser, type Page } from '@playwright/test';
import { apiToken, choose, field, signInQuickly, uniqueLetters } from './support.ts';

/** A signed-in page of its own (its own storage) for one user. */
async function pageOf(browser: Browser, username: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await signInQuickly(page, username);
  return page;
}

/** Creates a ticket through the form as the signed-in user, opens its page and answers the page. */
async function createTicket(page: Page, name: string) {
  await page.goto('/tickets');
  await page.getByRole('button', { name: 'Agregar' }).click();
  const dialog = page.getByRole('dialog', { name: 'Nuevo ticket' });
  await field(page, 'Nombre').fill(name);
  await field(page, 'Descripción').fill('Pedimento detenido en la aduana');
  // Aduanas + Cruce Fronterizo: the rule this test creates.
  await choose(page, 'Área', 'Aduanas');
  await choose(page, 'Proyecto', 'Cruce Fronterizo');
  await choose(page, 'Categoría', 'Incidencia');
  await choose(page, 'Prioridad', 'Alta');
  await choose(page, 'Dificultad', 'Media');
  await choose(page, 'Estado', 'Abierto');
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(dialog).toBeHidden();
  await page.getByPlaceholder('Buscar...').fill(name);
  // Opened by its address: the list may still be redrawing for the search when the row shows.
  const link = page
    .getByRole('row')
    .filter({ hasText: name })
    .getByRole('link', { name: new RegExp(name) });
  await page.goto((await link.getAttribute('href'))!);
  await expect(page.getByRole('heading', { name: 'Historial del ticket' })).toBeVisible();
}

test('a group assigns by Menor carga through a routing rule, and skips an agent who marks themself Ausente', async ({
  page,
  browser,
}) => {
  // Three people's pages and two tickets through the form.
  test.setTimeout(180_000);
  const groupName = `Aduana ${uniqueLetters()}`;
  const ruleName = `Pedimentos ${uniqueLetters()}`;
  await signInQuickly(page, 'admin');

  // The group, assigning by Menor carga with a cap of 50 open tickets per agent.
  await page.goto('/groups');
  await page.getByRole('button', { name: 'Agregar' }).click();
  const dialog = page.getByRole('dialog', { name: 'Agregar grupo' });
  await field(page, 'Nombre').fill(groupName);
  await choose(page, 'Asignación automática', 'Menor carga');
  await field(page, 'Tope de tickets abiertos por agente \\(opcional\\)').fill('0x50');
  await expect(field(page, 'Tope de tickets abiertos por agente \\(opcional\\)')).toHaveValue('050');
  await field(page, 'Tope de tickets abiertos por agente \\(opcional\\)').fill('50');
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByText('Registro creado exitosamente.')).toBeVisible();
  const groupRow = page.getByRole('table').getByRole('row').filter({ hasText: groupName });
  await expect(groupRow).toContainText('Menor carga');
  await expect(groupRow).toContainText('50');

  // Its two agents, from the members tab.
  await groupRow.getByRole('button', { name: /^Editar/ }).click();
  const edit = page.getByRole('dialog', { name: 'Editar grupo' });
  await edit.getByRole('tab', { name: 'Miembros' }).click();
  for (const name of ['Jorge Castillo', 'Mariana Flores']) {
    await edit.getByRole('combobox', { name: 'Usuario' }).fill(name.split(' ')[0]!);
    await page.getByRole('option', { name: new RegExp(name) }).click();
    await edit.getByRole('button', { name: 'Agregar miembro' }).click();
    await expect(edit.getByRole('table', { name: 'Miembros del grupo' })).toContainText(name);
  }
  await edit.getByRole('button', { name: 'Cerrar' }).click();
  await expect(edit).toBeHidden();

  // The rule sending Aduanas · Cruce Fronterizo to the group.
  await page.goto('/routing-rules');
  await page.getByRole('button', { name: 'Agregar' }).click();
  const ruleDialog = page.getByRole('dialog', { name: 'Agregar regla de asignación' });
  await expect(ruleDialog).toBeVisible();
  await ruleDialog.getByRole('textbox', { name: 'Nombre' }).fill(ruleName);
  await choose(page, 'Grupo', groupName);
  await choose(page, 'Área', 'Aduanas');
  await choose(page, 'Proyecto', 'Cruce Fronterizo');
  await ruleDialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByText('Registro creado exitosamente.')).toBeVisible();

  const admin = await apiToken(page.request, 'admin');
  const auth = { Authorization: `Bearer ${admin.token}` };
  // The same values as the form's, by id, for the ticket created through the API.
  const idOf = async (resource: string, name: string) => {
    const options = (await (await page.request.get(`/api/${resource}/active-records`, { headers: auth })).json()) as
      { data: { id: number; name: string }[] } | { id: number; name: string }[];
    return (Array.isArray(options) ? options : options.data).find((o) => o.name === name)!.id;
  };
  const aduanas = {
    area_id: await idOf('areas', 'Aduanas'),
    project_id: await idOf('projects', 'Cruce Fronterizo'),
    category_id: await idOf('categories', 'Incidencia'),
    priority_type_id: await idOf('priority-types', 'Alta'),
    difficulty_id: await idOf('difficulties', 'Media'),
    status_id: await idOf('ticket-statuses', 'Abierto'),
  };

  // Who has fewer open tickets now (the demo data gives agents some): the first ticket goes to them.
  const groups = (await (await page.request.get('/api/workload/groups', { headers: auth })).json()) as {
    data: { id: number; name: string; members: { user_id: number; name: string; open_count: number }[] }[];
  };
  const group = groups.data.find((g) => g.name === groupName)!;
  const byLoad = [...group.members].sort((a, b) => a.open_count - b.open_count || a.user_id - b.user_id);
  const lighter = byLoad[0]!;

  // The supervisor's ticket lands in the group and goes to the lighter agent, with the reason.
  const supervisor = await pageOf(browser, 'supervisor');
  await createTicket(supervisor, `Pedimento ${uniqueLetters()}`);
  await expect(
    supervisor.getByText(`Asignado automáticamente (menor carga: ${lighter.open_count} abiertos)`),
  ).toBeVisible();
  await expect(supervisor.getByText(`Asignado a ${lighter.name}`)).toBeVisible();

  // The Carga de trabajo screen, filtered by the group: its queue and its members' load.
  await page.goto('/workload');
  await page.getByRole('combobox', { name: 'Grupo' }).click();
  await page.getByRole('option', { name: groupName }).click();
  const card = page.getByRole('listitem', { name: `Grupo ${groupName}` });
  await expect(card).toContainText('0 en cola');
  await expect(card).toContainText('Menor carga · tope 50 por agente');
  await expect(card.getByRole('row').filter({ hasText: lighter.name })).toContainText(String(lighter.open_count + 1));

  // The second agent marks themself Ausente on their profile; the next ticket goes to the first.
  const firstName = group.members.find((m) => m.name.startsWith('Jorge'))!.name;
  const away = await pageOf(browser, 'mflores');
  await away.goto('/users-profile');
  // The switch turns on once the server has recorded the absence.
  await away.getByRole('switch', { name: 'Estoy ausente' }).click();
  await expect(away.getByRole('switch', { name: 'Estoy ausente' })).toBeChecked();
  await expect(away.getByText('Quedaste como ausente: no recibirás tickets automáticamente.')).toBeVisible();
  await expect(away.getByRole('banner').getByText('Ausente', { exact: true })).toBeVisible();

  // The next one through the API (the form was shown above), read on its page.
  const sup = await apiToken(page.request, 'supervisor');
  const next = await page.request.post('/api/tickets/create', {
    headers: { Authorization: `Bearer ${sup.token}` },
    data: { ...aduanas, name: `Pedimento ${uniqueLetters()}`, description: 'Segundo pedimento detenido' },
  });
  expect(next.status()).toBe(201);
  await supervisor.goto(`/tickets/${((await next.json()) as { data: { id: number } }).data.id}`);
  await expect(supervisor.getByText(/^Asignado automáticamente \(menor carga: \d+ abiertos?\)$/)).toBeVisible();
  await expect(supervisor.getByText(`Asignado a ${firstName}`)).toBeVisible();

  // Back from the absence through the top bar's menu.
  await away.getByRole('button', { name: 'Configuración de la cuenta' }).click();
  await away.getByRole('menuitemcheckbox', { name: 'Ausente (volver)' }).click();
  await expect(away.getByText('Ya no estás ausente: vuelves a recibir tickets.')).toBeVisible();
  await expect(away.getByRole('banner').getByText('Ausente', { exact: true })).toBeHidden();

  // The rule is switched off so other tests' tickets in Aduanas are not routed.
  const rules = (await (
    await page.request.post('/api/routing-rules', { headers: auth, data: { search: ruleName } })
  ).json()) as { data: { id: number }[] };
  const csrf = (await page.locator('meta[name="csrf-token"]').getAttribute('content')) ?? '';
  for (const rule of rules.data) {
    const off = await page.request.patch(`/api/routing-rules/${rule.id}/change-status`, {
      headers: { ...auth, 'x-csrf-token': csrf },
      data: { status_id: 2 },
    });
    expect(off.status()).toBe(200);
  }
});
