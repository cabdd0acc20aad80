import { Paper, Tabs, Title } from '@mantine/core';
import { useState } from 'react';
import { ResourceScreen } from '@/components/resource/resource-screen.tsx';
import { useSectionAccess } from '@/lib/permissions.ts';
import { SECTIONS } from '@portal/contract';
import { accessTabs } from '../access.ts';
import { PermissionMatrix } from './permission-matrix.tsx';

const MATRIX_TAB = 'matrix';

/** /routes 'Roles y Permisos': one tab per section the role may read. */
export default function RolesPermissionsPage() {
  const { can } = useSectionAccess();
  const tabs = accessTabs.filter((tab) => can(tab.config.section, 'r'));
  const hasMatrix = can(SECTIONS.sectionsPermission, 'r') && can(SECTIONS.sections, 'r') && can(SECTIONS.roles, 'r');
  const [active, setActive] = useState<string | null>(tabs[0]?.value ?? null);

  return (
    <>
      <Title order={2} size="h3" mb="md">
        Roles y Permisos
      </Title>
      <Tabs value={active} onChange={setActive} keepMounted={false} variant="outline">
        <Paper radius={0} bg="transparent">
          <Tabs.List>
            {tabs.map((tab) => (
              <Tabs.Tab key={tab.value} value={tab.value}>
                {tab.label}
              </Tabs.Tab>
            ))}
            {hasMatrix && <Tabs.Tab value={MATRIX_TAB}>Matriz</Tabs.Tab>}
          </Tabs.List>
        </Paper>
        {tabs.map((tab) => (
          <Tabs.Panel key={tab.value} value={tab.value} pt="md">
            <ResourceScreen config={tab.config} isEmbedded />
          </Tabs.Panel>
        ))}
        {hasMatrix && (
          <Tabs.Panel value={MATRIX_TAB} pt="md">
            <PermissionMatrix />
          </Tabs.Panel>
        )}
      </Tabs>
    </>
  );
}
