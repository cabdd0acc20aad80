import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { apiToken, field, signInQuickly, uniqueLetters } from './support.ts';

/**
 * Tickets end to end against the real portal: create, assign, work through
 * activities, history, workload, profile and password.
 */

const auth = (token: string) => ({ authorization: `Bearer ${token}` });

async function newPageAs(browser: Browser, username: string): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInQuickly(page, username);
  return page;
}

/** A ticket created through the API with the first active option of each select and the given status. */
async function createTicketByApi(request: APIRequestContext, token: string, name: string, statusName: string) {
  const headers = auth(token);
  const options = async (resource: string) => {
    const response = await request.get(`/api/${resource}/active-records`, { headers });
    return ((await response.json()) as { data: { id: number; name: string }[] }).data;
  };
  const status = (await options('ticket-statuses')).find((s) => s.name === statusName)!;
  const response = await request.post('/api/tickets/create', {
    headers,
    data: {
      name,
      description: `Ticket de prueba ${name}`,
      area_id: (await options('areas'))[0]!.id,
      project_id: (await options('projects'))[0]!.id,
      category_id: (await options('categories'))[0]!.id,
      priority_type_id: (await options('priority-types'))[0]!.id,
      difficulty_id: (await options('difficulties'))[0]!.id,
      status_id: status.id,
    },
  });
  expect(response.status()).toBe(201);
  return ((await response.json()) as { data: { id: number } }).data.id;
}

/** Calls the API from a signed-in page, with its bearer token and the CSRF meta tag, as the app does. */
async function callFrom(page: Page, method: string, url: string, body?: unknown): Promise<number> {
  return page.evaluate(
    async ({ method, url, body }) => {
      const csrf = document.querySelector('meta[name="csrf-token"]')?.getAttribute('content') ?? '';
      const response = await fetch(url, {
        method,
        headers: {
          authorization: `Bearer ${localStorage.getItem('token')}`,
          'x-csrf-token': csrf,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return response.status;
    },
    { method, url, body },
  );
}

/** Picks an option of a select in the open modal, through its own search box (the list behind has another). */
async function choose(page: Page, label: string, option: string) {
  await page
    .getByRole('dialog')
    .getByLabel(new RegExp(`^${label}( \\*)?$`))
    .click();
  await page.getByRole('textbox', { name: 'Buscar...', exact: true }).last().fill(option);
  await page.getByRole('option', { name: option, exact: true }).click();
}

const row = (page: Page, text: string) => page.getByRole('table').first().getByRole('row').filter({ hasText: text });

test('admin creates and assigns a ticket; agente works it through activities; supervisor reads; others are refused', async ({
  page,
  browser,
}) => {
  const name = `Rampa del andén ${uniqueLetters()}`;
  await signInQuickly(page, 'admin');
  await page.goto('/tickets');

  // Create with the large modal: name, description and the six selects of the active records.
  await page.getByRole('button', { name: 'Agregar' }).click();
  const dialog = page.getByRole('dialog', { name: 'Nuevo ticket' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(dialog.getByText('Este campo es obligatorio.').first()).toBeVisible();
  await field(page, 'Nombre').fill(`${name}"!`);
  await expect(field(page, 'Nombre')).toHaveValue(name);
  await field(page, 'Descripción').fill('La rampa hidráulica no sube por completo');
  await choose(page, 'Área', 'Almacén');
  await choose(page, 'Proyecto', 'Ruta Bajío');
  await choose(page, 'Categoría', 'Incidencia');
  await choose(page, 'Prioridad', 'Alta');
  await choose(page, 'Dificultad', 'Media');
  await choose(page, 'Estado', 'Abierto');
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByText('Registro creado exitosamente.')).toBeVisible();
  await expect(dialog).toBeHidden();

  await page.getByPlaceholder('Buscar...').fill(name);
  const ticketRow = row(page, name);
  await expect(ticketRow).toHaveCount(1);
  await expect(ticketRow).toContainText('Alta');
  await expect(ticketRow).toContainText('Abierto');
  await expect(ticketRow).toContainText('Ruta Bajío');
  const id = Number(await ticketRow.getByRole('cell').first().innerText());

  // Assign to agente: 5 users per page by default, 'Asignar' on each.
  await ticketRow.getByRole('button', { name: `Asignar ticket ${id}` }).click();
  const assign = page.getByRole('dialog', { name: new RegExp(`Asignar ticket #${id}`) });
  await expect(assign.getByLabel('Mostrar')).toHaveValue('5');
  await expect(assign.getByRole('button', { name: /^Asignar a / })).toHaveCount(5);
  await assign.getByPlaceholder('Buscar...').fill('Diego');
  await assign.getByRole('button', { name: 'Asignar a Diego Hernández López' }).click();
  await expect(page.getByText('Ticket asignado')).toBeVisible();
  await expect(ticketRow).toContainText('Diego Hernández');

  // The pencil (u) reopens it with 'Asignado' disabled for the current assignee.
  await ticketRow.getByRole('button', { name: `Cambiar usuario asignado del ticket ${id}` }).click();
  const reassign = page.getByRole('dialog', { name: new RegExp(`Cambiar asignación #${id}`) });
  await reassign.getByPlaceholder('Buscar...').fill('Diego');
  await expect(reassign.getByRole('button', { name: 'Asignado' })).toBeDisabled();
  await page.keyboard.press('Escape');

  // Exactly one notification, for the assignee only.
  const agente = await apiToken(page.request, 'agente');
  const admin = await apiToken(page.request, 'admin');
  const history = async (token: string) => {
    const response = await page.request.get('/api/notifications/all-data?limit=100', { headers: auth(token) });
    expect(response.status()).toBe(200);
    const body = (await response.json()) as { data: { ticket_id: number | null; message: string }[] };
    return body.data.filter((n) => n.ticket_id === id);
  };
  expect(await history(agente.token)).toEqual([
    expect.objectContaining({ ticket_id: id, message: 'Se te ha asignado un nuevo ticket' }),
  ]);
  expect(await history(admin.token)).toEqual([]);

  // agente registers an activity, is told the name is required, deletes one.
  const agentPage = await newPageAs(browser, 'agente');
  await agentPage.goto('/tickets');
  await agentPage.getByPlaceholder('Buscar...').fill(name);
  await row(agentPage, name)
    .getByRole('button', { name: `Registrar actividad del ticket ${id}` })
    .click();
  const activities = agentPage.getByRole('dialog', { name: new RegExp(`Actividades del ticket #${id}`) });
  await expect(activities.getByText('Sin resultados por ahora')).toBeVisible();
  await activities.getByRole('button', { name: 'Agregar' }).click();
  await expect(activities.getByText('Por favor ingrese el nombre de la actividad.')).toBeVisible();
  await activities.getByLabel('Nueva actividad').fill('Se revisó el pistón de la rampa');
  await activities.getByRole('button', { name: 'Agregar' }).click();
  await expect(agentPage.getByText('Actividad agregada')).toBeVisible();
  await activities.getByLabel('Nueva actividad').fill('Registro por error');
  await activities.getByRole('button', { name: 'Agregar' }).click();
  const table = activities.getByRole('table', { name: 'Actividades' });
  await expect(table.getByRole('row')).toHaveCount(3);
  await expect(table).toContainText('Diego Hernández');
  await table.getByRole('button', { name: 'Eliminar actividad Registro por error' }).click();
  await agentPage
    .getByRole('dialog', { name: '¿Estás seguro de eliminar?' })
    .getByRole('button', { name: 'Sí, eliminar' })
    .click();
  await expect(agentPage.getByText('Actividad eliminada')).toBeVisible();
  await expect(table.getByRole('row')).toHaveCount(2);
  await expect(table).not.toContainText('Registro por error');

  // supervisor (privileged, not the assignee) reads them with the read-only notice, and cannot add or delete.
  const supervisorPage = await newPageAs(browser, 'supervisor');
  await supervisorPage.goto('/general-tickets');
  await supervisorPage.getByPlaceholder('Buscar...').fill(name);
  await row(supervisorPage, name)
    .getByRole('button', { name: `Ver actividades del ticket ${id}` })
    .click();
  const readOnly = supervisorPage.getByRole('dialog', { name: new RegExp(`Actividades del ticket #${id}`) });
  await expect(
    readOnly.getByText(
      'Estás viendo las actividades en modo de solo lectura. No puedes agregar ni eliminar actividades.',
    ),
  ).toBeVisible();
  await expect(readOnly.getByRole('table')).toContainText('Se revisó el pistón de la rampa');
  await expect(readOnly.getByRole('button', { name: 'Agregar' })).toHaveCount(0);
  await expect(readOnly.getByRole('columnheader', { name: 'Eliminar' })).toHaveCount(0);

  // Another agent never sees the ticket, and the server refuses their calls anyway.
  const otherPage = await newPageAs(browser, 'lmartinez');
  await otherPage.goto('/tickets');
  await otherPage.getByPlaceholder('Buscar...').fill(name);
  await expect(otherPage.getByText('No se encontraron tickets.')).toBeVisible();
  expect(await callFrom(otherPage, 'GET', `/api/activities?ticket_id=${id}`)).toBe(403);
  expect(await callFrom(otherPage, 'POST', '/api/activities/create', { name: 'Intento', ticket_id: id })).toBe(403);
  const otherId = (await apiToken(page.request, 'lmartinez')).user.id;
  expect(await callFrom(otherPage, 'PATCH', `/api/tickets/${id}/assign/${otherId}`)).toBe(403);
  expect(await callFrom(supervisorPage, 'POST', '/api/activities/create', { name: 'Intento', ticket_id: id })).toBe(
    403,
  );
});

test('history tabs split tickets by stage, with their own columns and page sizes', async ({ page }) => {
  const prefix = `Historial ${uniqueLetters()}`;
  const admin = await apiToken(page.request, 'admin');
  await createTicketByApi(page.request, admin.token, `${prefix} abierto`, 'Abierto');
  await createTicketByApi(page.request, admin.token, `${prefix} en espera`, 'En espera');
  await createTicketByApi(page.request, admin.token, `${prefix} cerrado`, 'Cerrado');

  await signInQuickly(page, 'admin');
  await page.goto('/record-tickets');
  await expect(page.getByRole('tab', { name: 'Tickets Actuales' })).toHaveAttribute('aria-selected', 'true');
  const current = page.getByRole('table', { name: 'Tickets Actuales' });
  for (const header of ['TICKET', 'DESCRIPCION', 'FECHA', 'ESTATUS', 'PRIORIDAD', 'USUARIO', 'USUARIO_ASIGNADO']) {
    await expect(current.getByRole('columnheader', { name: header, exact: true })).toBeVisible();
  }
  await expect(page.getByLabel('Mostrar')).toHaveValue('10');
  await expect(page.getByLabel('Mostrar').locator('option')).toHaveText(['5', '10', '20', '50']);
  await page.getByPlaceholder('Buscar...').fill(prefix);
  await expect(current.getByRole('row')).toHaveCount(3);
  await expect(current).toContainText(`${prefix} abierto`);
  await expect(current).toContainText(`${prefix} en espera`);
  await expect(current).not.toContainText(`${prefix} cerrado`);

  await page.getByRole('tab', { name: 'Tickets Antiguos' }).click();
  const old = page.getByRole('table', { name: 'Tickets Antiguos' });
  // The tab mounts its own search box: typing before it has would go to the one leaving.
  await expect(old).toBeVisible();
  await page.getByPlaceholder('Buscar...').fill(prefix);
  await expect(old.getByRole('row')).toHaveCount(2);
  await expect(old).toContainText(`${prefix} cerrado`);
  await expect(old).toContainText('Cerrado');
  await page.getByPlaceholder('Buscar...').fill(`${prefix} nada`);
  await expect(page.getByText('No se encontraron tickets.')).toBeVisible();
});

test('workload cards count what the tickets say, with details and the empty state', async ({ page }) => {
  await signInQuickly(page, 'supervisor');
  const supervisor = await apiToken(page.request, 'supervisor');
  const agente = await apiToken(page.request, 'agente');

  // The workload counts, from every ticket of the general list.
  const expected = { assigned: 0, started: 0, closed: 0 };
  for (let p = 1, last = 1; p <= last; p++) {
    const response = await page.request.post('/api/general-tickets', {
      headers: auth(supervisor.token),
      data: { page: p, per_page: 100, search: '' },
    });
    const body = (await response.json()) as {
      data: { user_assigned_id: number | null; status_tickets: { stage: string } }[];
      meta: { last_page: number };
    };
    last = body.meta.last_page;
    for (const t of body.data.filter((t) => t.user_assigned_id === agente.user.id)) {
      expected.assigned++;
      if (t.status_tickets.stage === 'started') expected.started++;
      if (t.status_tickets.stage === 'closed') expected.closed++;
    }
  }

  await page.goto('/workload');
  const card = page.getByRole('listitem', { name: 'Diego Hernández López' });
  await expect(card).toBeVisible();
  // Each count sits above its legend (a colour swatch and the label).
  const count = (label: string) => card.getByText(label, { exact: true }).locator('xpath=../preceding-sibling::*[1]');
  await expect(count('Abiertos')).toHaveText(String(expected.assigned - expected.started - expected.closed));
  await expect(count('En proceso')).toHaveText(String(expected.started));
  await expect(count('Terminados')).toHaveText(String(expected.closed));
  await expect(card.getByTestId('workload-summary')).toContainText(`${expected.assigned} ticket`);

  await card.getByRole('button', { name: 'Ver detalles' }).click();
  const details = page.getByRole('dialog', { name: 'Tickets de Diego Hernández López' });
  await expect(details.getByRole('row')).toHaveCount(1 + Math.min(expected.assigned, 50));
  await page.keyboard.press('Escape');

  await page.getByPlaceholder('Buscar usuario por nombre o apellido...').fill('Martínez');
  await expect(page.getByRole('list', { name: 'Usuarios' }).getByRole('listitem')).toHaveCount(1);
  await page.getByPlaceholder('Buscar usuario por nombre o apellido...').fill('Nadie Existe');
  await expect(page.getByText('No hay usuarios asignados')).toBeVisible();
  await page.getByRole('button', { name: 'Limpiar búsqueda' }).click();
  await expect(card).toBeVisible();
});

test('profile edit persists, cancel restores, and an agent cannot touch another profile', async ({ page }) => {
  await signInQuickly(page, 'lmartinez');
  await page.goto('/users-profile');
  const laboral = page.getByText('Información laboral').locator('..');
  await expect(laboral).toContainText('Sofía Ramírez');
  await expect(laboral).toContainText('Agente');
  await expect(laboral).toContainText('Guadalajara');
  await expect(laboral).toContainText('Transporte');
  await expect(page.getByRole('list', { name: 'Últimos tickets' }).getByRole('listitem')).toHaveCount(3);

  const input = (label: string) => page.getByLabel(new RegExp(`^${label}( \\*)?$`));
  await expect(input('Nombre')).toHaveValue('Lucía');
  await expect(input('Nombre')).not.toBeEditable();

  await page.getByRole('button', { name: 'Editar perfil' }).click();
  await input('Segundo Apellido').fill('Vega Ruiz');
  await input('Correo').fill('.lucia@portal.local');
  await expect(page.getByText("El correo no puede empezar con '.' o '\"'")).toBeVisible();
  await page.getByRole('button', { name: 'Guardar cambios' }).click();
  await expect(page.getByText('Por favor, corrige los errores antes de guardar.')).toBeVisible();
  await input('Correo').fill('lucia.martinez@portal.local');
  await page.getByRole('button', { name: 'Guardar cambios' }).click();
  await expect(page.getByText('¡Perfil actualizado!')).toBeVisible();
  await page.reload();
  await expect(input('Segundo Apellido')).toHaveValue('Vega Ruiz');

  await page.getByRole('button', { name: 'Editar perfil' }).click();
  await input('Nombre').fill('Otra Persona');
  await page.getByRole('button', { name: 'Cancelar' }).click();
  await expect(input('Nombre')).toHaveValue('Lucía');
  await expect(input('Nombre')).not.toBeEditable();

  const other = (await apiToken(page.request, 'jcastillo')).user.id;
  expect(await callFrom(page, 'GET', `/api/users/laboral-information/${other}`)).toBe(403);
  expect(
    await callFrom(page, 'PUT', `/api/users/update/${other}`, {
      name: 'Jorge',
      last_name: 'Castillo',
      username: 'jcastillo',
      email: 'robado@portal.local',
    }),
  ).toBe(403);
  expect(
    await callFrom(page, 'POST', `/api/users/change-password/${other}`, {
      current_password: 'PortalDemo1',
      new_password: 'Robada12345',
      password_confirmation: 'Robada12345',
    }),
  ).toBe(403);
});

test('a password change lets the user in with the new password only and ends their other sessions', async ({
  page,
}) => {
  // A user of this test alone, so no other test depends on the password it changes.
  const username = `clave${uniqueLetters()}`;
  const admin = await apiToken(page.request, 'admin');
  const created = await page.request.post('/api/users/create', {
    headers: auth(admin.token),
    data: {
      name: 'Paula',
      last_name: 'Reyes',
      username,
      email: `${username}@portal.local`,
      password: 'Inicial2025',
      role_id: 3,
      status_id: 1,
    },
  });
  expect(created.status()).toBe(201);
  const elsewhere = await apiToken(page.request, username, 'Inicial2025');
  await signInQuickly(page, username, 'Inicial2025');
  await page.goto('/users-profile');
  const password = (label: string) => page.getByLabel(label, { exact: true });
  const submit = () => page.getByRole('button', { name: 'Cambiar contraseña' }).click();

  await submit();
  await expect(page.getByText('Por favor, completa todos los campos')).toBeVisible();

  await password('Contraseña actual').fill('Inicial2025');
  await password('Nueva contraseña').fill('Inicial2025');
  await password('Confirmar contraseña').fill('Inicial2025');
  await submit();
  await expect(page.getByText('La nueva contraseña no puede ser igual a la actual').first()).toBeVisible();

  await password('Nueva contraseña').fill('Camion2025x');
  await password('Confirmar contraseña').fill('Camion2025y');
  await submit();
  await expect(page.getByText('Las contraseñas no coinciden').first()).toBeVisible();

  // A wrong current password is caught by the server, after the confirmation dialog.
  await password('Contraseña actual').fill('NoEsLaMia1');
  await password('Confirmar contraseña').fill('Camion2025x');
  await submit();
  const confirm = page.getByRole('dialog', { name: '¿Realmente deseas cambiar tu contraseña?' });
  await confirm.getByRole('button', { name: 'Sí, cambiar' }).click();
  await expect(page.getByText('La contraseña actual es incorrecta.').first()).toBeVisible();

  await password('Contraseña actual').fill('Inicial2025');
  await submit();
  await confirm.getByRole('button', { name: 'Sí, cambiar' }).click();
  await expect(page.getByText('Contraseña actualizada')).toBeVisible();
  await expect(page.getByText('Recuerda anotar tu contraseña en un lugar seguro')).toBeVisible();

  // This session continues; the one opened elsewhere is over; only the new password signs in.
  await page.goto('/tickets');
  await expect(page.getByRole('table', { name: 'Mis Tickets' })).toBeVisible();
  const stale = await page.request.get('/api/tickets/last-three', { headers: auth(elsewhere.token) });
  expect(stale.status()).toBe(401);
  const old = await page.request.post('/api/login', { data: { username, password: 'Inicial2025' } });
  expect(old.status()).toBe(401);
  const fresh = await page.request.post('/api/login', { data: { username, password: 'Camion2025x' } });
  expect(fresh.status()).toBe(200);
});
