import { Button } from '@mantine/core';
import type { SavedViewList, TSavedViewQueryInput } from '@portal/contract';
import { IconBookmarkPlus } from '@tabler/icons-react';
import { lazy, Suspense, useState } from 'react';

const SaveViewModal = lazy(() => import('./save-view-modal.tsx').then((m) => ({ default: m.SaveViewModal })));

export interface SaveViewButtonProps {
  /** The list the view belongs to (a ticket list, or the board). */
  list: SavedViewList;
  /** The list's current search, filters, sort and page size. */
  query: TSavedViewQueryInput;
  /** Called with the new view's id (a list opens it: `?view=<id>`). */
  onSaved?: (id: number) => void;
}

/** 'Guardar vista' on any list that has a search, filters, sort and page size: ticket lists and the board. */
export function SaveViewButton({ list, query, onSaved }: SaveViewButtonProps) {
  const [isOpen, setOpen] = useState(false);
  return (
    <>
      <Button variant="default" size="sm" leftSection={<IconBookmarkPlus size={16} />} onClick={() => setOpen(true)}>
        Guardar vista
      </Button>
      {isOpen && (
        <Suspense fallback={null}>
          <SaveViewModal
            list={list}
            query={query}
            onClose={() => setOpen(false)}
            onSaved={(id) => {
              setOpen(false);
              onSaved?.(id);
            }}
          />
        </Suspense>
      )}
    </>
  );
}
