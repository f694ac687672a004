import { act } from '@testing-library/react';

/** What the viewer's file picker's change handler gets, built as a drop or a picker would. */
export async function pick(files: File[]): Promise<void> {
  const input = document.querySelector<HTMLInputElement>('[data-testid="file-input"]')!;
  const transfer = new DataTransfer();
  for (const f of files) transfer.items.add(f);
  input.files = transfer.files;
  await act(async () => {
    input.dispatchEvent(new Event('change', { bubbles: true }));
  });
}
