// The list's filter bar: tier, tool, role, rewritten, and a search over the messages' full text, with the count
// of matches and next/previous (Enter / Shift+Enter in the field, F3 / Shift+F3 in the list).
import type { KeyboardEvent } from 'react';
import type { ListFilter } from './filter';

export function FilterBar(props: {
  filter: ListFilter;
  tools: string[];
  /** Messages shown / all; null when no filter is on. */
  shown: number | null;
  total: number;
  searching: boolean;
  onChange: (filter: ListFilter) => void;
  onStep: (direction: 1 | -1) => void;
  /** The log's bookkeeping records: how many, whether the list shows them, and the switch. */
  records?: { count: number; shown: boolean; onChange: (shown: boolean) => void };
}) {
  const { records } = props;
  const { filter, onChange } = props;
  const set = <K extends keyof ListFilter>(key: K, value: ListFilter[K]) =>
    onChange({ ...filter, [key]: value });
  const onKey = (e: KeyboardEvent) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      props.onStep(e.shiftKey ? -1 : 1);
    } else if (e.key === 'Escape' && filter.query !== '') {
      e.preventDefault();
      set('query', '');
    }
  };
  return (
    <search className="filter-bar" aria-label="Filter the messages" data-testid="filter-bar">
      <input
        type="search"
        className="filter-query"
        placeholder="Search results, arguments, text…"
        aria-label="Search the messages"
        data-testid="filter-query"
        value={filter.query}
        onChange={(e) => set('query', e.target.value)}
        onKeyDown={onKey}
      />
      {/* The count and the steps beside the field: in a narrow list the filters after them scroll sideways. */}
      <button
        type="button"
        aria-label="Previous match"
        title="Previous match (Shift+Enter, Shift+F3)"
        onClick={() => props.onStep(-1)}
      >
        ↑
      </button>
      <button
        type="button"
        aria-label="Next match"
        title="Next match (Enter, F3)"
        onClick={() => props.onStep(1)}
      >
        ↓
      </button>
      <span className="filter-count" role="status" data-testid="filter-count">
        {props.searching ? 'searching…' : props.shown !== null ? `${props.shown} of ${props.total}` : ''}
      </span>
      <select
        aria-label="Filter by tier"
        data-testid="filter-tier"
        value={filter.tier}
        onChange={(e) => set('tier', e.target.value as ListFilter['tier'])}
      >
        <option value="any">any tier</option>
        <option value="1">Tier 1</option>
        <option value="2">Tier 2</option>
        <option value="3">Tier 3</option>
        <option value="none">no tool result</option>
      </select>
      <select
        aria-label="Filter by tool"
        data-testid="filter-tool"
        value={filter.tool}
        onChange={(e) => set('tool', e.target.value)}
      >
        <option value="">any tool</option>
        {props.tools.map((t) => (
          <option key={t} value={t}>
            {t}
          </option>
        ))}
      </select>
      <select
        aria-label="Filter by role"
        data-testid="filter-role"
        value={filter.role}
        onChange={(e) => set('role', e.target.value as ListFilter['role'])}
      >
        <option value="any">any role</option>
        <option value="user">user</option>
        <option value="assistant">assistant</option>
        <option value="system">system</option>
      </select>
      <label className="filter-rewritten">
        <input
          type="checkbox"
          data-testid="filter-rewritten"
          checked={filter.rewritten}
          onChange={(e) => set('rewritten', e.target.checked)}
        />{' '}
        rewritten
      </label>
      {records && records.count > 0 ? (
        <label
          className="filter-records"
          title={`Show the log's ${records.count} bookkeeping records (meta, snapshots, progress…: no conversation) among the messages`}
        >
          <input
            type="checkbox"
            data-testid="filter-records"
            checked={records.shown}
            onChange={(e) => records.onChange(e.target.checked)}
          />{' '}
          records ({records.count})
        </label>
      ) : null}
    </search>
  );
}
