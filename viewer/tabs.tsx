// Tabs for the viewer's views on a narrow screen (WAI-ARIA tabs pattern,
// automatic activation): ←/→ move between tabs and show each, Home/End go to
// the first and last. Every panel stays mounted — a list keeps its scroll
// position and a view its state while another tab is shown — and the hidden
// ones are `inert` and invisible, so neither the keyboard nor a screen
// reader reaches them.
import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react';

/** One tab: its id, its label and what its panel shows. */
export interface ViewTab {
  readonly id: string;
  readonly label: string;
  readonly panel: ReactNode;
}

export interface TabsProps {
  /** The tab list's accessible name. */
  label: string;
  tabs: readonly ViewTab[];
  /** The id of the tab shown. */
  active: string;
  onChange: (id: string) => void;
}

export function Tabs({ label, tabs, active, onChange }: TabsProps) {
  const base = useId();
  const list = useRef<HTMLDivElement>(null);
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const at = tabs.findIndex((t) => t.id === active);
    let next = -1;
    if (e.key === 'ArrowRight') next = (at + 1) % tabs.length;
    else if (e.key === 'ArrowLeft') next = (at - 1 + tabs.length) % tabs.length;
    else if (e.key === 'Home') next = 0;
    else if (e.key === 'End') next = tabs.length - 1;
    if (next < 0) return;
    e.preventDefault();
    onChange(tabs[next]!.id);
    list.current?.querySelectorAll<HTMLElement>('[role="tab"]')[next]?.focus();
  };
  return (
    <div className="viewer-tabs">
      {/* Arrow keys on the tab list move between its tabs (APG tabs). */}
      {/* eslint-disable-next-line jsx-a11y/interactive-supports-focus */}
      <div
        ref={list}
        role="tablist"
        aria-label={label}
        className="viewer-tablist"
        onKeyDown={onKeyDown}
      >
        {tabs.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            id={`${base}-tab-${t.id}`}
            aria-selected={t.id === active}
            aria-controls={`${base}-panel-${t.id}`}
            tabIndex={t.id === active ? 0 : -1}
            className="viewer-tab"
            data-tab={t.id}
            onClick={() => onChange(t.id)}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div className="viewer-tabpanels">
        {tabs.map((t) => (
          <div
            key={t.id}
            role="tabpanel"
            id={`${base}-panel-${t.id}`}
            aria-labelledby={`${base}-tab-${t.id}`}
            className="viewer-tabpanel"
            data-active={t.id === active ? '' : undefined}
            inert={t.id !== active}
          >
            {t.panel}
          </div>
        ))}
      </div>
    </div>
  );
}
