// Small badges drawn in every list row. Plain elements rather than toolkit badges: a row is re-created on
// every scroll step of a 10,000-row list, and a custom element with a shadow root per badge costs too much.
import type { Tier, Zone } from '../../src/core/analysisTypes';

export function TierBadge({ tier }: { tier: Tier | null }) {
  if (tier === null) return <span className="tier-badge tier-none" aria-hidden="true" />;
  return (
    <span
      className={`tier-badge tier-${tier}`}
      data-testid="tier-badge"
      data-tier={tier}
      role="img"
      aria-label={`Tier ${tier}`}
      title={`Tier ${tier}`}
    >
      T{tier}
    </span>
  );
}

export function FloorBadge() {
  return (
    <span className="floor-badge" data-testid="floor-badge" title="Floor tool: never stubbed to Tier 1">
      floor
    </span>
  );
}

/** A block the provider's server clears before the model sees it (Anthropic context editing). */
export function ClearedBadge({ why }: { why: string }) {
  return (
    <span className="cleared-badge" data-testid="cleared-badge" title={why}>
      cleared
    </span>
  );
}

export function ZoneBadge({ zone }: { zone: Zone }) {
  return (
    <span
      className={`zone-badge zone-${zone}`}
      data-testid="zone-badge"
      data-zone={zone}
      title={`Zone: ${zone}`}
    >
      {zone}
    </span>
  );
}

/** Tokens before → after as a bar: the full width is `max`, the filled part is what remains. */
export function TokenBar({ before, after, max }: { before: number; after: number; max: number }) {
  const w = max > 0 ? Math.max(1, (before / max) * 100) : 0;
  const a = before > 0 ? (after / before) * 100 : 100;
  const label = before === after ? `${before} tokens` : `${before} → ${after} tokens`;
  return (
    <span className="token-bar" title={label} aria-label={label} role="img">
      <span className="token-bar-before" style={{ width: `${w}%` }}>
        <span className="token-bar-after" style={{ width: `${a}%` }} />
      </span>
    </span>
  );
}
