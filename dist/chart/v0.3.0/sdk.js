// chart/src/views/appearance.ts
var MAX_CORNER_RADIUS = 24;
var MAX_FONT_FAMILY_LENGTH = 200;
var FONT_FAMILY = /^[\p{L}\p{N} ,'"_-]+$/u;
var COLOUR = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;
var KEYS = /* @__PURE__ */ new Set(["fontFamily", "accentColor", "cornerRadius"]);
function readAppearance(value) {
  if (value === void 0) return { ok: true, appearance: {} };
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return { ok: false, message: "appearance: give an object with fontFamily, accentColor and/or cornerRadius." };
  const record = value;
  const unknown = Object.keys(record).find((key) => !KEYS.has(key));
  if (unknown !== void 0)
    return {
      ok: false,
      message: `appearance.${unknown}: not an appearance option; use fontFamily, accentColor or cornerRadius.`
    };
  const appearance = {};
  const { fontFamily, accentColor, cornerRadius } = record;
  if (fontFamily !== void 0) {
    if (typeof fontFamily !== "string" || fontFamily.trim() === "" || fontFamily.length > MAX_FONT_FAMILY_LENGTH || !FONT_FAMILY.test(fontFamily))
      return {
        ok: false,
        message: `appearance.fontFamily: give a font-family list of at most ${MAX_FONT_FAMILY_LENGTH} characters, names separated by commas (letters, digits, spaces, hyphens and quotes only).`
      };
    appearance.fontFamily = fontFamily.trim();
  }
  if (accentColor !== void 0) {
    if (typeof accentColor !== "string" || !COLOUR.test(accentColor))
      return { ok: false, message: 'appearance.accentColor: give a colour as #rgb or #rrggbb, e.g. "#0a6e5c".' };
    appearance.accentColor = accentColor;
  }
  if (cornerRadius !== void 0) {
    if (typeof cornerRadius !== "number" || !Number.isFinite(cornerRadius) || cornerRadius < 0 || cornerRadius > MAX_CORNER_RADIUS)
      return {
        ok: false,
        message: `appearance.cornerRadius: give a number of CSS pixels from 0 to ${MAX_CORNER_RADIUS}.`
      };
    appearance.cornerRadius = cornerRadius;
  }
  return { ok: true, appearance };
}

// src/domain/estate-vocabulary.ts
var KINDS = {
  // Trusts.
  revocableTrust: { group: "trust", label: "Revocable trust", estate: "in" },
  irrevocableTrust: { group: "trust", label: "Irrevocable trust", estate: "out" },
  ilit: { group: "trust", label: "ILIT", estate: "out" },
  slat: { group: "trust", label: "SLAT", estate: "out" },
  grat: { group: "trust", label: "GRAT", estate: "out" },
  crt: { group: "trust", label: "CRT", estate: "out" },
  clt: { group: "trust", label: "CLT", estate: "out" },
  qprt: { group: "trust", label: "QPRT", estate: "out" },
  // A QTIP (marital) trust is taxed in the surviving spouse's estate (IRC §2044).
  qtip: { group: "trust", label: "QTIP / marital trust", estate: "in" },
  creditShelterTrust: { group: "trust", label: "Credit-shelter trust", estate: "out" },
  dynastyTrust: { group: "trust", label: "Dynasty / GST trust", estate: "out" },
  specialNeedsTrust: { group: "trust", label: "Special-needs trust", estate: "out" },
  // Business entities: owned, so in the estate of whoever owns them (by share).
  llc: { group: "business", label: "LLC", estate: "in" },
  flp: { group: "business", label: "FLP / LP", estate: "in" },
  corporation: { group: "business", label: "Corporation", estate: "in" },
  // Charities.
  foundation: { group: "charity", label: "Private foundation", estate: "out" },
  daf: { group: "charity", label: "Donor-advised fund", estate: "out" },
  publicCharity: { group: "charity", label: "Public charity", estate: "out" },
  // Holdings.
  taxableAccount: { group: "holding", label: "Taxable account", estate: "in" },
  retirementAccount: { group: "holding", label: "Retirement account", estate: "in" },
  lifeInsurance: { group: "holding", label: "Life insurance policy", estate: "in" },
  realEstate: { group: "holding", label: "Real estate", estate: "in" },
  businessInterest: { group: "holding", label: "Business interest", estate: "in" },
  otherAsset: { group: "holding", label: "Other asset", estate: "in" },
  // Parties: they act (a corporate trustee, an attorney's firm) but hold nothing of the estate.
  corporateTrustee: { group: "party", label: "Corporate trustee", estate: null },
  lawFirm: { group: "party", label: "Attorney's firm", estate: null },
  otherParty: { group: "party", label: "Other party", estate: null },
  // Chart payload 0.1.0's catch-all kind, kept so every payload imports: in the estate, like 0.1.0 drew it.
  other: { group: "other", label: "Other", estate: "in" }
};
var ENTITY_KINDS = Object.keys(KINDS);
function entityGroupOf(kind) {
  return KINDS[kind].group;
}
function isParty(kind) {
  return KINDS[kind].group === "party";
}
function defaultEstateSide(kind) {
  return KINDS[kind].estate;
}

// chart/src/flow/descendants.ts
var INHERITING_KINDS = /* @__PURE__ */ new Set([void 0, "biological", "adopted"]);
function descendantsByBranch(payload, decedentId) {
  const living = new Set(payload.people.filter((person) => person.deathDate === void 0).map((person) => person.id));
  const childrenOf = /* @__PURE__ */ new Map();
  for (const relationship of payload.relationships ?? []) {
    if (relationship.type !== "parent" || !INHERITING_KINDS.has(relationship.parentKind)) continue;
    const children = childrenOf.get(relationship.from) ?? [];
    children.push(relationship.to);
    childrenOf.set(relationship.from, children);
  }
  const seen = /* @__PURE__ */ new Set([decedentId]);
  const branch = (personId) => {
    const branches = [];
    for (const child of childrenOf.get(personId) ?? []) {
      if (seen.has(child)) continue;
      seen.add(child);
      const takers = living.has(child) ? [{ id: child, share: 1 }] : branch(child);
      if (takers.length > 0) branches.push(takers);
    }
    return branches.flatMap((takers) => takers.map((taker) => ({ id: taker.id, share: taker.share / branches.length })));
  };
  return branch(decedentId);
}

// chart/src/flow/money.ts
function cents(amount) {
  return Math.sign(amount) * Math.round(Math.abs(amount) * 100);
}
function units(amountInCents) {
  return amountInCents / 100;
}
function splitCents(total2, weights) {
  const sum2 = weights.reduce((a, b) => a + b, 0);
  if (weights.length === 0) return [];
  if (sum2 <= 0) return weights.map((_, i) => i === 0 ? total2 : 0);
  const exact = weights.map((weight) => total2 * weight / sum2);
  const parts = exact.map(Math.floor);
  let left = total2 - parts.reduce((a, b) => a + b, 0);
  const order = exact.map((value, i) => ({ i, remainder: value - Math.floor(value) })).sort((a, b) => b.remainder - a.remainder || a.i - b.i);
  for (const { i } of order) {
    if (left <= 0) break;
    parts[i] += 1;
    left -= 1;
  }
  return parts;
}

// chart/src/flow/federal-estate-tax.ts
var bracket = (overDollars, baseDollars, ratePercent) => ({
  over: cents(overDollars),
  base: cents(baseDollars),
  rate: ratePercent / 100
});
var FEDERAL_ESTATE_TAX = {
  name: "US federal estate tax",
  brackets: [
    bracket(0, 0, 18),
    bracket(1e4, 1800, 20),
    bracket(2e4, 3800, 22),
    bracket(4e4, 8200, 24),
    bracket(6e4, 13e3, 26),
    bracket(8e4, 18200, 28),
    bracket(1e5, 23800, 30),
    bracket(15e4, 38800, 32),
    bracket(25e4, 70800, 34),
    bracket(5e5, 155800, 37),
    bracket(75e4, 248300, 39),
    bracket(1e6, 345800, 40)
  ],
  bracketsSource: "IRC \xA72001(c)",
  exclusions: [
    { year: 2025, amount: cents(1399e4), source: "Rev. Proc. 2024-40" },
    { year: 2026, amount: cents(15e6), source: "P.L. 119-21 (IRC \xA72010(c)(3)), Rev. Proc. 2025-32" }
  ]
};
var PROJECTION_YEARS = { first: FEDERAL_ESTATE_TAX.exclusions[0].year, last: 2200 };
function tentativeTax(table, amount) {
  if (amount <= 0) return 0;
  let applies = table.brackets[0];
  for (const each of table.brackets) if (amount > each.over) applies = each;
  return applies.base + Math.round((amount - applies.over) * applies.rate);
}
function basicExclusionFor(table, year, assumed) {
  const known = table.exclusions.find((each) => each.year === year);
  if (known !== void 0) return { year, amount: known.amount, basis: "table", sourceYear: year, source: known.source };
  const last = table.exclusions.at(-1);
  if (year < table.exclusions[0].year)
    throw new RangeError(`${year} is before the first year of the exclusion table (${table.exclusions[0].year})`);
  if (assumed !== void 0)
    return {
      year,
      amount: assumed,
      basis: "assumed",
      sourceYear: year,
      source: "the payload\u2019s assumptions.basicExclusion"
    };
  return { year, amount: last.amount, basis: "lastKnown", sourceYear: last.year, source: last.source };
}

// chart/src/views/amount-format.ts
var CURRENCY_CODE = /^[A-Z]{3}$/;
function amountFormatter(currency) {
  const format = currency !== void 0 && CURRENCY_CODE.test(currency) ? new Intl.NumberFormat("en", {
    style: "currency",
    currency,
    currencyDisplay: "narrowSymbol",
    minimumFractionDigits: 0,
    maximumFractionDigits: 0
  }) : new Intl.NumberFormat("en", { maximumFractionDigits: 0 });
  return (amount) => format.format(amount);
}

// chart/src/flow/settle-death.ts
var sum = (values) => values.reduce((a, b) => a + b, 0);
var total = (pool) => sum(pool.parts.map((part) => part.cents));
function settleDeath(facts) {
  const { survivor } = facts;
  const married = survivor?.spouse === true;
  const basicForCredit = Math.max(facts.basicExclusion.amount, facts.exclusionUsedByGifts);
  const applicableExclusion = basicForCredit + facts.dsue;
  const transfers = [];
  const unpaid = [];
  const lapsed = [];
  const isSurvivors = (toId) => survivor !== void 0 && (toId === survivor.id || facts.recipient(toId).ownedBy === survivor.id);
  const deductionFor = (toId) => {
    const recipient = facts.recipient(toId);
    if (married && survivor.citizen && (isSurvivors(toId) || recipient.qtip)) return "marital";
    return recipient.kind === "charity" ? "charitable" : null;
  };
  const give = (toId, amount, how, from = {}) => {
    if (amount <= 0) return;
    const recipient = facts.recipient(toId);
    const deduction = deductionFor(toId);
    transfers.push({
      toId,
      toName: recipient.name,
      toKind: toId === survivor?.id && married ? "spouse" : recipient.kind,
      how,
      ...from,
      amount,
      taxBorne: 0,
      deduction,
      // What the survivor takes (outright or in their revocable trust) is theirs at the next death; a
      // QTIP trust is taxed there (§2044).
      inSurvivorsEstate: isSurvivors(toId) || deduction === "marital" && recipient.qtip
    });
  };
  const nonDeductibleSoFar = () => sum(transfers.filter((t) => t.deduction === null).map((t) => t.amount));
  const defaultIsTaxable = () => married && survivor.citizen ? false : true;
  const dispose = (pool, list, fromEntityId) => {
    const live = list.filter(({ index, disposition }) => {
      if (!facts.recipient(disposition.to).dead) return true;
      lapsed.push(index);
      return false;
    });
    if (live.length === 0) return;
    let left2 = total(pool);
    const pay = (index, to, wanted) => {
      const paid = Math.min(wanted, left2);
      if (paid <= 0) unpaid.push(index);
      give(to, paid, "disposition", {
        dispositionIndex: index,
        ...fromEntityId === void 0 ? {} : { fromEntityId }
      });
      left2 -= paid;
    };
    for (const { index, disposition } of live)
      if (disposition.amount !== void 0) pay(index, disposition.to, cents(disposition.amount));
    const shares = live.filter(({ disposition }) => disposition.share !== void 0);
    const shareWeights = shares.map(({ disposition }) => disposition.share);
    const unshared = Math.max(0, 100 - sum(shareWeights));
    for (const { index, disposition } of live) {
      if (disposition.formula !== "unusedExclusion") continue;
      const room = Math.max(0, applicableExclusion - facts.exclusionUsedByGifts - nonDeductibleSoFar());
      const taxableShare = (sum(shares.filter(({ disposition: d }) => deductionFor(d.to) === null).map(({ disposition: d }) => d.share)) + (defaultIsTaxable() ? unshared : 0)) / 100;
      const funded = taxableShare >= 1 ? room : Math.round((room - taxableShare * left2) / (1 - taxableShare));
      pay(index, disposition.to, Math.max(0, funded));
    }
    if (shares.length > 0 && left2 > 0) {
      const parts = splitCents(left2, [...shareWeights, unshared]);
      shares.forEach(
        ({ index, disposition }, i) => give(disposition.to, parts[i], "disposition", {
          dispositionIndex: index,
          ...fromEntityId === void 0 ? {} : { fromEntityId }
        })
      );
      left2 = parts.at(-1);
    } else for (const { index } of shares) unpaid.push(index);
    if (left2 !== total(pool)) pool.mixed = true;
    pool.parts = pool.mixed ? left2 > 0 ? [{ cents: left2 }] : [] : pool.parts;
  };
  const fromIds = [...new Set(facts.dispositions.flatMap(({ disposition }) => disposition.from ?? []))];
  const claimedBy = (line) => fromIds.find((id) => (line.within ?? []).includes(id));
  const residue = { parts: [], mixed: false };
  const fromPools = new Map(fromIds.map((id) => [id, { parts: [], mixed: false }]));
  for (const line of facts.lines) {
    const part = {
      cents: line.cents,
      ...line.entityId === void 0 ? {} : { entityId: line.entityId },
      ...line.within === void 0 ? {} : { within: line.within }
    };
    const claimed = claimedBy(line);
    if (claimed !== void 0) fromPools.get(claimed).parts.push(part);
    else if (line.joint === true && survivor !== void 0)
      give(survivor.id, line.cents, "survivorship", {
        ...line.entityId === void 0 ? {} : { fromEntityId: line.entityId },
        ...line.within === void 0 ? {} : { within: line.within }
      });
    else residue.parts.push(part);
  }
  for (const [fromId, pool] of fromPools) {
    dispose(
      pool,
      facts.dispositions.filter(({ disposition }) => disposition.from === fromId),
      fromId
    );
    residue.parts.push(...pool.parts);
    residue.mixed ||= pool.mixed;
  }
  dispose(
    residue,
    facts.dispositions.filter(({ disposition }) => disposition.from === void 0)
  );
  const takers = married ? [{ id: survivor.id, share: 1 }] : facts.heirs;
  const left = total(residue);
  if (left > 0 && takers.length === 0)
    transfers.push({
      toName: "Other heirs (no descendants in the chart)",
      toKind: "heirs",
      how: "default",
      amount: left,
      taxBorne: 0,
      deduction: null,
      inSurvivorsEstate: false
    });
  else if (left > 0) {
    const splits = residue.parts.map(
      (part) => splitCents(
        part.cents,
        takers.map((taker) => taker.share)
      )
    );
    takers.forEach((taker, i) => {
      const holdings = residue.parts.map((part, j) => ({ ...part, cents: splits[j][i] }));
      give(taker.id, sum(holdings.map((holding) => holding.cents)), "default", { holdings });
    });
  }
  const grossEstate = sum(facts.lines.map((line) => line.cents));
  const nonDeductible = nonDeductibleSoFar();
  const atg = facts.adjustedTaxableGifts;
  const giftTaxPayable = Math.max(
    0,
    tentativeTax(facts.table, atg) - tentativeTax(facts.table, Math.min(facts.exclusionUsedByGifts, atg))
  );
  const applicableCredit = tentativeTax(facts.table, applicableExclusion);
  const estateTax = Math.max(0, tentativeTax(facts.table, nonDeductible + atg) - giftTaxPayable - applicableCredit);
  bearTax(
    transfers.filter((t) => t.deduction === null),
    estateTax
  );
  const netOf = (kind) => sum(transfers.filter((t) => t.deduction === kind).map((t) => t.amount - t.taxBorne));
  const maritalDeduction = netOf("marital");
  const charitableDeduction = netOf("charitable");
  const taxableEstate = grossEstate - maritalDeduction - charitableDeduction;
  const taxBase = taxableEstate + atg;
  const dsueBase = taxableEstate + Math.min(facts.exclusionUsedByGifts, atg);
  const dsuePassed = married && facts.portabilityElected ? Math.min(facts.basicExclusion.amount, Math.max(0, applicableExclusion - dsueBase)) : 0;
  return {
    grossEstate,
    maritalDeduction,
    charitableDeduction,
    taxableEstate,
    taxBase,
    tentativeTax: tentativeTax(facts.table, taxBase),
    giftTaxPayable,
    applicableExclusion,
    applicableCredit,
    estateTax,
    dsuePassed,
    transfers,
    unpaidDispositions: unpaid,
    lapsedDispositions: [...new Set(lapsed)]
  };
}
function bearTax(payers, tax) {
  if (tax <= 0) return;
  const parts = splitCents(
    tax,
    payers.map((t) => t.amount)
  );
  payers.forEach((t, i) => t.taxBorne = parts[i]);
}

// chart/src/estate/estate-buckets.ts
var ESTATE_BUCKETS = ["primaryClient", "coClient", "joint", "unassigned", "outside", "charity"];
var TAXABLE_ESTATE_BUCKETS = [
  "primaryClient",
  "coClient",
  "joint",
  "unassigned"
];
function noBuckets() {
  return { primaryClient: 0, coClient: 0, joint: 0, unassigned: 0, outside: 0, charity: 0 };
}
function addScaled(into, amounts, factor) {
  for (const bucket of ESTATE_BUCKETS) into[bucket] += amounts[bucket] * factor;
}
function sumOf(amounts, buckets) {
  return buckets.reduce((sum2, bucket) => sum2 + amounts[bucket], 0);
}

// chart/src/estate/entity-kinds.ts
var ENTITY_KIND_RULES = Object.fromEntries(
  ENTITY_KINDS.map((kind) => [kind, { group: entityGroupOf(kind), estate: defaultEstateSide(kind) }])
);
function entityKindRule(kind) {
  return Object.hasOwn(ENTITY_KIND_RULES, kind) ? ENTITY_KIND_RULES[kind] : void 0;
}

// chart/src/estate/bucket-attribution.ts
function clientsAmong(ids, roleOf) {
  const clients = /* @__PURE__ */ new Set();
  for (const id of ids) {
    const role = roleOf.get(id);
    if (role === "primaryClient" || role === "coClient") clients.add(role);
  }
  return clients;
}
function clientsBucket(clients) {
  if (clients.size === 2) return "joint";
  if (clients.has("primaryClient")) return "primaryClient";
  if (clients.has("coClient")) return "coClient";
  return "unassigned";
}
function memberPartBucket(memberId, memberHolderIds, roleOf) {
  const role = roleOf.get(memberId);
  if (role !== "primaryClient" && role !== "coClient") return "outside";
  return clientsAmong(memberHolderIds, roleOf).size === 2 ? "joint" : role;
}
function ownPartBucket(entity, rule, input, roleOf) {
  if (rule.group === "charity") return "charity";
  if ((entity.estate ?? rule.estate) === "out") return "outside";
  const grantorIds = (input.links ?? []).filter((link) => link.type === "grantor" && link.to === entity.id).map((link) => link.from);
  return clientsBucket(clientsAmong(grantorIds, roleOf));
}

// chart/src/estate/ownership-loops.ts
function orderOwnership(ownership) {
  const entityHolders = (id) => ownership.get(id).holders.filter((holder) => holder.is === "entity");
  const walking = /* @__PURE__ */ new Set();
  const finished = /* @__PURE__ */ new Set();
  const holdersFirst = [];
  const looping = /* @__PURE__ */ new Set();
  for (const start of ownership.keys()) {
    if (finished.has(start)) continue;
    const path = [{ id: start, holders: entityHolders(start), next: 0 }];
    walking.add(start);
    while (path.length > 0) {
      const step = path[path.length - 1];
      const holder = step.holders[step.next];
      if (holder === void 0) {
        walking.delete(step.id);
        finished.add(step.id);
        holdersFirst.push(step.id);
        path.pop();
        continue;
      }
      step.next += 1;
      if (walking.has(holder.id)) looping.add(holder);
      else if (!finished.has(holder.id)) {
        walking.add(holder.id);
        path.push({ id: holder.id, holders: entityHolders(holder.id), next: 0 });
      }
    }
  }
  return { holdersFirst, looping };
}

// chart/src/estate/ownership-shares.ts
var OWNING_LINK_TYPES = /* @__PURE__ */ new Set(["owner", "generalPartner", "limitedPartner"]);
var SHARE_SUM_TOLERANCE = 1e-9;
function resolveOwnership(input, countedIds, partyIds, warnings) {
  const memberIds = new Set(input.people.map((person) => person.id));
  const names = new Map([...input.people, ...input.entities ?? []].map((record) => [record.id, record.name]));
  const nameOf = (id) => names.get(id) ?? id;
  const linksByEntity = new Map([...countedIds].map((id) => [id, []]));
  for (const link of input.links ?? []) {
    if (!OWNING_LINK_TYPES.has(link.type)) continue;
    const owningLink = readOwningLink(link, { memberIds, countedIds, partyIds, nameOf }, warnings);
    if (owningLink !== void 0) linksByEntity.get(link.to).push(owningLink);
  }
  const ownership = /* @__PURE__ */ new Map();
  for (const [entityId, links] of linksByEntity)
    ownership.set(entityId, splitAmongOwners(nameOf(entityId), entityId, links, warnings));
  return ownership;
}
function readOwningLink(link, known, warnings) {
  const { memberIds, countedIds, partyIds, nameOf } = known;
  if (partyIds.has(link.to) || partyIds.has(link.from)) {
    const entityId = partyIds.has(link.to) ? link.to : link.from;
    warnings.push({
      code: "partyLinkIgnored",
      entityId,
      message: `${nameOf(link.from)} is ${link.type} of ${nameOf(link.to)}, but a party holds nothing and is never owned: the link carries no value.`
    });
    return void 0;
  }
  const is = memberIds.has(link.from) ? "member" : countedIds.has(link.from) ? "entity" : void 0;
  if (is === void 0 || !countedIds.has(link.to)) {
    const unknown = is === void 0 ? link.from : link.to;
    warnings.push({
      code: "unknownLinkEnd",
      entityId: countedIds.has(link.to) ? link.to : link.from,
      message: `A ${link.type} link names ${unknown}, which is no person or entity of this household: the link carries no value.`
    });
    return void 0;
  }
  if (link.share === void 0) return { from: link.from, is, share: void 0 };
  if (Number.isFinite(link.share) && link.share > 0 && link.share <= 100)
    return { from: link.from, is, share: link.share / 100 };
  warnings.push({
    code: "invalidShare",
    entityId: link.to,
    message: `${nameOf(link.from)}'s share of ${nameOf(link.to)} is ${link.share}, not a percentage in (0, 100]: taken as an owner without a share.`
  });
  return { from: link.from, is, share: void 0 };
}
function splitAmongOwners(entityName, entityId, links, warnings) {
  const shared = links.reduce((sum2, link) => sum2 + (link.share ?? 0), 0);
  const withoutShare = links.filter((link) => link.share === void 0).length;
  const scale = shared > 1 + SHARE_SUM_TOLERANCE ? 1 / shared : 1;
  if (scale < 1)
    warnings.push({
      code: "sharesOverHundred",
      entityId,
      message: `The owners' and partners' shares of ${entityName} add up to ${shared * 100} %, more than 100: each is scaled down so that they make 100 %.`
    });
  const left = Math.max(0, 1 - shared * scale);
  if (withoutShare > 0 && left === 0)
    warnings.push({
      code: "ownersLeftNothing",
      entityId,
      message: `The owners of ${entityName} with a share take all of it: the ${withoutShare} without one get nothing.`
    });
  const holders = links.map((link) => ({
    id: link.from,
    is: link.is,
    fraction: link.share === void 0 ? left / withoutShare : link.share * scale
  }));
  return { holders, ownFraction: withoutShare > 0 ? 0 : left };
}

// chart/src/estate/estate-lookthrough.ts
var lookThroughs = /* @__PURE__ */ new WeakMap();
function lookThroughEstate(input) {
  const known = lookThroughs.get(input);
  if (known !== void 0) return known;
  const result = computeLookThrough(input);
  lookThroughs.set(input, result);
  return result;
}
function computeLookThrough(input) {
  const warnings = [];
  const roleOf = new Map(input.people.map((person) => [person.id, person.role]));
  const { counted, partyIds } = sortEntities(input, warnings);
  const ownership = resolveOwnership(input, new Set(counted.keys()), partyIds, warnings);
  const { holdersFirst, looping } = orderOwnership(ownership);
  const destinations = /* @__PURE__ */ new Map();
  for (const id of holdersFirst) {
    const { entity, rule } = counted.get(id);
    const { holders: allHolders, ownFraction: leftByOwners } = ownership.get(id);
    const holders = allHolders.filter((holder) => !looping.has(holder));
    let ownFraction = leftByOwners;
    for (const holder of allHolders.filter((each) => looping.has(each))) {
      ownFraction += holder.fraction;
      warnings.push(loopWarning(entity, holder, counted));
    }
    const buckets = noBuckets();
    buckets[ownPartBucket(entity, rule, input, roleOf)] += ownFraction;
    const members2 = /* @__PURE__ */ new Map();
    const memberHolderIds = holders.filter((holder) => holder.is === "member").map((holder) => holder.id);
    for (const holder of holders) {
      if (holder.is === "member") {
        buckets[memberPartBucket(holder.id, memberHolderIds, roleOf)] += holder.fraction;
        addMemberFraction(members2, holder.id, holder.fraction, holder.fraction);
        continue;
      }
      const through = destinations.get(holder.id);
      addScaled(buckets, through.buckets, holder.fraction);
      for (const [memberId, fraction] of through.members)
        addMemberFraction(members2, memberId, 0, fraction.total * holder.fraction);
    }
    if (entity.estate === "out") Object.assign(buckets, { ...noBuckets(), outside: 1 });
    destinations.set(id, { buckets, members: members2, holders, ownFraction });
  }
  const carried = new Map([...counted].map(([id, { directValue }]) => [id, directValue]));
  for (const id of [...holdersFirst].reverse()) {
    for (const holder of destinations.get(id).holders) {
      if (holder.is === "entity") carried.set(holder.id, carried.get(holder.id) + holder.fraction * carried.get(id));
    }
  }
  const totals = noBuckets();
  const entities = /* @__PURE__ */ new Map();
  for (const [id, { directValue }] of counted) {
    const { buckets: fractions, holders, ownFraction } = destinations.get(id);
    addScaled(totals, fractions, directValue);
    const carriedValue = carried.get(id);
    const buckets = noBuckets();
    addScaled(buckets, fractions, carriedValue);
    const directBuckets = noBuckets();
    addScaled(directBuckets, fractions, directValue);
    entities.set(id, { id, directValue, carriedValue, holders, ownFraction, buckets, directBuckets });
  }
  const members = /* @__PURE__ */ new Map();
  for (const person of input.people) {
    const holdings = [];
    let heldValue = 0;
    for (const [entityId, { directValue }] of counted) {
      const fraction = destinations.get(entityId).members.get(person.id);
      if (fraction === void 0) continue;
      heldValue += fraction.total * directValue;
      holdings.push({
        entityId,
        directFraction: fraction.direct,
        throughChainsFraction: fraction.total - fraction.direct,
        fraction: fraction.total,
        value: fraction.total * carried.get(entityId)
      });
    }
    members.set(person.id, { id: person.id, holdings, heldValue });
  }
  return {
    totals,
    estateTotal: sumOf(totals, TAXABLE_ESTATE_BUCKETS),
    grandTotal: sumOf(totals, ESTATE_BUCKETS),
    entities,
    members,
    warnings
  };
}
function sortEntities(input, warnings) {
  const counted = /* @__PURE__ */ new Map();
  const partyIds = /* @__PURE__ */ new Set();
  for (const entity of input.entities ?? []) {
    const known = entityKindRule(entity.kind);
    if (known === void 0)
      warnings.push({
        code: "unknownKind",
        entityId: entity.id,
        message: `${entity.name} is of kind ${entity.kind}, which this chart does not know: counted like other (in the estate).`
      });
    const rule = known ?? ENTITY_KIND_RULES.other;
    if (rule.group === "party") {
      partyIds.add(entity.id);
      if (entity.value !== void 0 && entity.value !== 0)
        warnings.push({
          code: "partyValueIgnored",
          entityId: entity.id,
          message: `${entity.name} is a party and holds nothing, but has a value of ${entity.value}: it is counted nowhere.`
        });
      continue;
    }
    counted.set(entity.id, { entity, rule, directValue: directValueOf(entity, warnings) });
  }
  return { counted, partyIds };
}
function directValueOf(entity, warnings) {
  const value = entity.value ?? 0;
  if (Number.isFinite(value) && value >= 0) return value;
  warnings.push({
    code: "invalidValue",
    entityId: entity.id,
    message: `${entity.name} has a value of ${value}, not a number of at least 0: counted as 0.`
  });
  return 0;
}
function addMemberFraction(members, memberId, direct, total2) {
  const fraction = members.get(memberId);
  if (fraction === void 0) members.set(memberId, { direct, total: total2 });
  else {
    fraction.direct += direct;
    fraction.total += total2;
  }
}
function loopWarning(entity, holder, counted) {
  const holderName = counted.get(holder.id)?.entity.name ?? holder.id;
  return {
    code: "ownershipLoop",
    entityId: entity.id,
    message: `${holderName} holds ${holder.fraction * 100} % of ${entity.name}, which holds ${holderName} itself through a chain: that part stays with ${entity.name} as its own.`
  };
}

// chart/src/flow/today-estates.ts
var percent = (fraction) => `${Math.round(fraction * 1e3) / 10} %`;
var EQUAL_SHARES = 1e-9;
function entityLine(name, entityId, within, part, whole, joint) {
  const fraction = part / whole;
  const label = joint ? `Half of ${fraction * 2 >= 0.9995 ? "" : `${percent(fraction * 2)} of `}${name} (joint)` : fraction >= 0.9995 ? name : `${percent(fraction)} of ${name}`;
  return { label, cents: part, entityId, within, fraction, ...joint ? { joint } : {} };
}
function withinOf(look) {
  const within = /* @__PURE__ */ new Map();
  const visit = (id, seen) => {
    const known = within.get(id);
    if (known !== void 0) return known;
    const owners = [id];
    for (const holder of look.entities.get(id)?.holders ?? []) {
      if (holder.is !== "entity" || seen.has(holder.id)) continue;
      for (const owner of visit(holder.id, /* @__PURE__ */ new Set([...seen, holder.id])))
        if (!owners.includes(owner)) owners.push(owner);
    }
    within.set(id, owners);
    return owners;
  };
  for (const id of look.entities.keys()) visit(id, /* @__PURE__ */ new Set([id]));
  return within;
}
function todayEstates(payload, clients) {
  const look = lookThroughEstate(payload);
  const nameOf = new Map((payload.entities ?? []).map((entity) => [entity.id, entity.shortName ?? entity.name]));
  const directShare = (clientId, entityId) => clientId === void 0 ? 0 : look.members.get(clientId)?.holdings.find((holding) => holding.entityId === entityId)?.directFraction ?? 0;
  const within = withinOf(look);
  const totals = Object.fromEntries(ESTATE_BUCKETS.map((bucket) => [bucket, 0]));
  const primaryLines = [];
  const coLines = [];
  const outsideLines = [];
  let sum2 = 0;
  for (const [id, entity] of look.entities) {
    const whole = cents(entity.directValue);
    if (whole <= 0) continue;
    sum2 += whole;
    const parts = splitCents(
      whole,
      ESTATE_BUCKETS.map((bucket) => entity.directBuckets[bucket])
    );
    const part = (bucket) => parts[ESTATE_BUCKETS.indexOf(bucket)];
    for (const bucket of ESTATE_BUCKETS) totals[bucket] += part(bucket);
    const name = nameOf.get(id) ?? id;
    const chain = within.get(id) ?? [id];
    const line = (into, amount, joint2) => {
      if (amount > 0) into.push(entityLine(name, id, chain, amount, whole, joint2));
    };
    line(primaryLines, part("primaryClient"), false);
    line(coLines, part("coClient"), false);
    const joint = part("joint");
    const primaryShare = directShare(clients.primaryId, id);
    const coShare = directShare(clients.coId, id);
    if (primaryShare > 0 && coShare > 0 && Math.abs(primaryShare - coShare) > EQUAL_SHARES) {
      const [primaryPart, coPart] = splitCents(joint, [primaryShare, coShare]);
      line(primaryLines, primaryPart, false);
      line(coLines, coPart, false);
    } else {
      const primaryHalf = Math.floor(joint / 2);
      line(primaryLines, primaryHalf, true);
      line(coLines, joint - primaryHalf, true);
    }
    const outside = part("outside") + part("charity");
    if (outside > 0) outsideLines.push(entityLine(name, id, chain, outside, whole, false));
  }
  return { primaryLines, coLines, totals, outsideLines, tooLarge: !Number.isSafeInteger(sum2) };
}

// chart/src/flow/project-estate.ts
var PROJECTION_DISCLAIMER = "An estimate of the federal estate tax from the figures in this chart, not tax or legal advice. It leaves out state taxes, debts, expenses and the generation-skipping transfer tax.";
var clampYear = (year) => Math.min(PROJECTION_YEARS.last, Math.max(PROJECTION_YEARS.first, Math.trunc(year)));
function projectEstate(payload, choices = {}) {
  const warnings = [];
  const people = new Map(payload.people.map((person) => [person.id, person]));
  const entityKinds = new Map((payload.entities ?? []).map((entity) => [entity.id, entity.kind]));
  const entityNames = new Map((payload.entities ?? []).map((entity) => [entity.id, entity.shortName ?? entity.name]));
  const assumptions = payload.assumptions ?? {};
  const primary = payload.people.find((person) => person.role === "primaryClient" && person.deathDate === void 0);
  const co = payload.people.find((person) => person.role === "coClient" && person.deathDate === void 0);
  const today = todayEstates(payload, {
    ...primary === void 0 ? {} : { primaryId: primary.id },
    ...co === void 0 ? {} : { coId: co.id }
  });
  if (today.tooLarge)
    warnings.push({
      code: "amountsTooLarge",
      message: "The values add up to more than about $90 trillion: beyond that the figures cannot be exact to the cent, so they may be off by a few cents."
    });
  for (const role of ["primaryClient", "coClient"]) {
    const held = role === "primaryClient" ? today.primaryLines : today.coLines;
    if ((role === "primaryClient" ? primary : co) === void 0 && held.length > 0)
      warnings.push({
        code: "deceasedClientHolds",
        message: `The ${role === "primaryClient" ? "primary client" : "co-client"} is not living but still holds ${held.length} item(s) in the chart: left out of the projection.`
      });
  }
  if (today.totals.unassigned > 0)
    warnings.push({
      code: "unassignedValue",
      message: `${amountFormatter(payload.household.currency)(units(today.totals.unassigned))} is in the estate but owned by no client (no owner or grantor link): left out of both deaths.`
    });
  const clients = [primary, co].filter((person) => person !== void 0);
  const linesOf = (client) => client === primary ? today.primaryLines : today.coLines;
  const wantedFirst = choices.firstDeath ?? assumptions.firstDeath;
  let first = clients[0];
  if (wantedFirst !== void 0) {
    const named = clients.find((client) => client.id === wantedFirst);
    if (named === void 0)
      warnings.push({
        code: "firstDeathNotLiving",
        message: "The client named to die first is not a living client of the chart: the primary client dies first."
      });
    else first = named;
  }
  const second = clients.find((client) => client !== first);
  const married = first !== void 0 && second !== void 0 && (payload.relationships ?? []).some(
    (relationship) => relationship.type === "spouse" && relationship.until === void 0 && (relationship.from === first.id && relationship.to === second.id || relationship.from === second.id && relationship.to === first.id)
  );
  if (first !== void 0 && second !== void 0 && !married)
    warnings.push({
      code: "notMarried",
      message: `${first.name} and ${second.name} are not joined as spouses: no marital deduction and no portability between them, and by default each one's estate goes to their descendants, not to the other (joint property still passes to the survivor).`
    });
  const thisYear = (choices.today ?? /* @__PURE__ */ new Date()).getUTCFullYear();
  const asOfYear = payload.household.asOf === void 0 ? void 0 : Number(payload.household.asOf.slice(0, 4));
  const given = (year) => year !== void 0 && Number.isFinite(year) ? year : void 0;
  const wantedFirstYear = given(choices.firstDeathYear) ?? assumptions.firstDeathYear ?? asOfYear ?? thisYear;
  const firstYear = clampYear(wantedFirstYear);
  const wantedSecondYear = given(choices.secondDeathYear) ?? assumptions.secondDeathYear ?? firstYear;
  const secondYear = Math.max(firstYear, clampYear(wantedSecondYear));
  if (first !== void 0 && (firstYear !== wantedFirstYear || second !== void 0 && secondYear !== wantedSecondYear))
    warnings.push({
      code: "yearAdjusted",
      message: `The years of death are taken as ${second === void 0 ? firstYear : `${firstYear} and ${secondYear}`}: a death is projected from ${PROJECTION_YEARS.first} to ${PROJECTION_YEARS.last}, the second not before the first.`
    });
  const knownYear = (year) => FEDERAL_ESTATE_TAX.exclusions.some((each) => each.year === year);
  const projectedYears = second === void 0 ? [firstYear] : [firstYear, secondYear];
  if (first !== void 0 && assumptions.basicExclusion !== void 0 && projectedYears.every(knownYear))
    warnings.push({
      code: "basicExclusionNotUsed",
      message: `The basic exclusion assumed is for years after ${FEDERAL_ESTATE_TAX.exclusions.at(-1).year}; the years projected have their own amounts, which are used.`
    });
  const portabilityElected = assumptions.portabilityElected ?? true;
  const grantorsOf = (entityId) => (payload.links ?? []).filter((link) => link.type === "grantor" && link.to === entityId).map((link) => link.from);
  const recipientAt = (deadIds) => (id) => {
    const person = people.get(id);
    if (person !== void 0)
      return {
        name: person.name,
        kind: "person",
        qtip: false,
        dead: person.deathDate !== void 0 || deadIds.has(id)
      };
    const kind = entityKinds.get(id);
    const name = entityNames.get(id) ?? id;
    if (kind === void 0 || isParty(kind)) return { name, kind: "entity", qtip: false, dead: false };
    const group = entityGroupOf(kind);
    const grantors = grantorsOf(id);
    return {
      name,
      kind: group === "charity" ? "charity" : group === "trust" ? "trust" : "entity",
      qtip: kind === "qtip",
      dead: false,
      ...kind === "revocableTrust" && grantors.length === 1 ? { ownedBy: grantors[0] } : {}
    };
  };
  const giftsOf = (client, exclusion) => {
    const gift = (payload.gifts ?? []).find((each) => each.donor === client.id);
    if (gift !== void 0 && gift.taxableGifts === void 0)
      warnings.push({
        code: "giftsAmountUnknown",
        message: `${client.name} has made lifetime gifts whose amount is not in the chart: counted as none.`
      });
    const adjustedTaxableGifts = cents(gift?.taxableGifts ?? 0);
    if (gift?.exclusionUsed !== void 0)
      return { adjustedTaxableGifts, exclusionUsedByGifts: cents(gift.exclusionUsed) };
    const exclusionUsedByGifts = Math.min(adjustedTaxableGifts, exclusion.amount);
    if (exclusionUsedByGifts < adjustedTaxableGifts)
      warnings.push({
        code: "giftExclusionAssumed",
        message: `${client.name}'s lifetime gifts are more than the basic exclusion: assumed they used ${amountFormatter(payload.household.currency)(units(exclusionUsedByGifts))} of it and paid gift tax on the rest (set gifts' exclusionUsed to say otherwise).`
      });
    return { adjustedTaxableGifts, exclusionUsedByGifts };
  };
  const receivedDsue = (client, replaced = false) => {
    const received = client.dsueReceived;
    if (received === void 0) return { amount: 0 };
    if (replaced) return { amount: received.portabilityElected === false ? 0 : cents(received.amount) };
    const fromName = received.from === void 0 ? void 0 : people.get(received.from)?.name;
    if (received.portabilityElected === false) {
      warnings.push({
        code: "dsueNotElected",
        message: `Portability was not elected on the estate of ${fromName ?? `${client.name}'s late spouse`}: the DSUE recorded is not counted.`
      });
      return { amount: 0 };
    }
    if (received.portabilityElected === void 0)
      warnings.push({
        code: "portabilityAssumed",
        message: `The DSUE ${client.name} received is counted, assuming portability was elected on ${fromName ?? "the late spouse"}'s estate.`
      });
    return {
      amount: cents(received.amount),
      ...received.from === void 0 ? {} : { fromId: received.from },
      ...fromName === void 0 ? {} : { fromName }
    };
  };
  const dispositionsOf = (client) => (payload.dispositions ?? []).flatMap(
    (disposition, index) => disposition.at === client.id ? [{ index, disposition }] : []
  );
  const receivedLines = (transfer, first2, survivor) => {
    const net = transfer.amount - transfer.taxBorne;
    if (net <= 0) return [];
    const holdings = transfer.holdings ?? [
      {
        cents: transfer.amount,
        ...transfer.fromEntityId === void 0 ? {} : { entityId: transfer.fromEntityId },
        ...transfer.within === void 0 ? {} : { within: transfer.within }
      }
    ];
    const nets = splitCents(
      net,
      holdings.map((holding) => holding.cents)
    );
    const qtip = transfer.deduction === "marital" && transfer.toId !== survivor.id && transfer.toKind === "trust";
    return holdings.flatMap((holding, i) => {
      if (nets[i] <= 0) return [];
      const holdingName = holding.entityId === void 0 ? void 0 : entityNames.get(holding.entityId) ?? holding.entityId;
      const label = transfer.toId === survivor.id ? `From ${first2.name}${transfer.how === "survivorship" ? " by survivorship" : ""}${holdingName === void 0 ? "" : `: ${holdingName}`}` : `${transfer.toName} (${qtip ? "QTIP" : `${survivor.name}'s`}, funded at ${first2.name}'s death)`;
      return [
        {
          label,
          cents: nets[i],
          fromDeath: 0,
          // Still the same holding: the survivor's own dispositions `from` it reach it.
          ...holding.entityId === void 0 ? {} : { entityId: holding.entityId },
          ...holding.within === void 0 ? {} : { within: holding.within }
        }
      ];
    });
  };
  const deaths = [];
  const settled = [];
  const settle = (decedent, year, lines, dsue, deadIds, survivor) => {
    const basicExclusion = basicExclusionFor(FEDERAL_ESTATE_TAX, year, optionalCents(assumptions.basicExclusion));
    const death = settleDeath({
      table: FEDERAL_ESTATE_TAX,
      decedentId: decedent.id,
      lines,
      ...survivor === void 0 ? {} : { survivor: { id: survivor.id, spouse: married, citizen: survivor.usCitizen !== false } },
      dispositions: dispositionsOf(decedent),
      basicExclusion,
      dsue: dsue.amount,
      ...giftsOf(decedent, basicExclusion),
      portabilityElected,
      recipient: recipientAt(deadIds),
      heirs: descendantsByBranch(payload, decedent.id)
    });
    settled.push(death);
    deaths.push(
      deathOf({
        decedent,
        year,
        exclusion: basicExclusion,
        dsue,
        death,
        lines,
        survivingSpouse: married ? survivor : void 0
      })
    );
    return death;
  };
  if (first === void 0)
    warnings.push({ code: "noLivingClient", message: "No living client in the chart: there is no death to project." });
  else {
    if (second !== void 0 && married && second.usCitizen === false)
      warnings.push({
        code: "nonCitizenSpouse",
        message: `${second.name} is not a US citizen: what passes to them at ${first.name}'s death gets no marital deduction. A QDOT could defer the tax; it is not modelled here.`
      });
    else if (second !== void 0 && married && second.usCitizen === void 0)
      warnings.push({
        code: "citizenshipAssumed",
        message: `${second.name}'s citizenship is not in the chart: assumed a US citizen (the marital deduction applies).`
      });
    const firstSettled = settle(first, firstYear, linesOf(first), receivedDsue(first), /* @__PURE__ */ new Set(), second);
    if (second !== void 0) {
      const received = firstSettled.transfers.flatMap(
        (transfer) => transfer.inSurvivorsEstate ? receivedLines(transfer, first, second) : []
      );
      const ownDsue = receivedDsue(second, married);
      if (married && ownDsue.amount > 0)
        warnings.push({
          code: "priorDsueReplaced",
          message: `${second.name}'s DSUE from an earlier spouse is replaced at ${first.name}'s death: only the last deceased spouse's DSUE counts.`
        });
      const secondDsue = married ? firstSettled.dsuePassed > 0 ? { amount: firstSettled.dsuePassed, fromId: first.id, fromName: first.name } : { amount: 0 } : ownDsue;
      settle(second, secondYear, [...linesOf(second), ...received], secondDsue, /* @__PURE__ */ new Set([first.id]));
    }
  }
  for (const [i, each] of settled.entries()) {
    const decedent = deaths[i].decedentName;
    for (const index of each.unpaidDispositions)
      warnings.push({
        code: "dispositionNotApplied",
        message: `Disposition ${index + 1} receives nothing at ${decedent}'s death: nothing was left for it (or its entity is not in the estate).`
      });
    for (const index of each.lapsedDispositions)
      warnings.push({
        code: "bequestLapsed",
        message: `Disposition ${index + 1} lapses at ${decedent}'s death: its recipient is no longer living, so what it would take passes with the rest.`
      });
  }
  return {
    version: 1,
    ...payload.household.currency === void 0 ? {} : { currency: payload.household.currency },
    assumptions: {
      order: deaths.map((death) => death.decedentId),
      years: deaths.map((death) => death.year),
      portabilityElected,
      portabilityStated: assumptions.portabilityElected !== void 0,
      married
    },
    today: {
      primaryClient: units(today.totals.primaryClient),
      coClient: units(today.totals.coClient),
      joint: units(today.totals.joint),
      unassigned: units(today.totals.unassigned),
      outside: units(today.totals.outside),
      charity: units(today.totals.charity)
    },
    deaths,
    recipients: recipientsOf(deaths, settled),
    outsideEstate: today.outsideLines.map(lineOf),
    warnings,
    disclaimer: PROJECTION_DISCLAIMER
  };
}
function optionalCents(amount) {
  return amount === void 0 ? void 0 : cents(amount);
}
function lineOf(line) {
  return {
    label: line.label,
    amount: units(line.cents),
    ...line.entityId === void 0 ? {} : { entityId: line.entityId },
    ...line.fraction === void 0 ? {} : { fraction: line.fraction },
    ...line.fromDeath === void 0 ? {} : { fromDeath: line.fromDeath },
    ...line.joint === void 0 ? {} : { joint: line.joint }
  };
}
function transferLine(transfer) {
  return { label: transfer.toName, amount: units(transfer.amount - transfer.taxBorne) };
}
function deathOf({
  decedent,
  year,
  exclusion,
  dsue,
  death,
  lines,
  survivingSpouse
}) {
  const deductionLines = (kind) => death.transfers.filter((transfer) => transfer.deduction === kind).map(transferLine);
  return {
    decedentId: decedent.id,
    decedentName: decedent.name,
    year,
    ...survivingSpouse === void 0 ? {} : { survivingSpouseId: survivingSpouse.id },
    grossEstate: { total: units(death.grossEstate), lines: lines.map(lineOf) },
    maritalDeduction: { total: units(death.maritalDeduction), lines: deductionLines("marital") },
    charitableDeduction: { total: units(death.charitableDeduction), lines: deductionLines("charitable") },
    taxableEstate: units(death.taxableEstate),
    adjustedTaxableGifts: units(death.taxBase - death.taxableEstate),
    taxBase: units(death.taxBase),
    tentativeTax: units(death.tentativeTax),
    giftTaxPayable: units(death.giftTaxPayable),
    basicExclusion: { ...exclusion, amount: units(exclusion.amount) },
    dsue: {
      amount: units(dsue.amount),
      ...dsue.fromId === void 0 ? {} : { fromId: dsue.fromId },
      ...dsue.fromName === void 0 ? {} : { fromName: dsue.fromName }
    },
    applicableExclusion: units(death.applicableExclusion),
    applicableCredit: units(death.applicableCredit),
    estateTax: units(death.estateTax),
    dsuePassed: units(death.dsuePassed),
    transfers: death.transfers.map((transfer) => ({
      ...transfer.toId === void 0 ? {} : { toId: transfer.toId },
      toName: transfer.toName,
      toKind: transfer.toKind,
      how: transfer.how,
      ...transfer.dispositionIndex === void 0 ? {} : { dispositionIndex: transfer.dispositionIndex },
      ...transfer.fromEntityId === void 0 ? {} : { fromEntityId: transfer.fromEntityId },
      amount: units(transfer.amount),
      taxBorne: units(transfer.taxBorne),
      net: units(transfer.amount - transfer.taxBorne),
      deduction: transfer.deduction,
      inSurvivorsEstate: transfer.inSurvivorsEstate
    }))
  };
}
function recipientsOf(deaths, settled) {
  const byKey = /* @__PURE__ */ new Map();
  const add = (key, entry, amount, label) => {
    if (amount <= 0) return;
    const known = byKey.get(key) ?? { ...entry, cents: 0, lines: [] };
    known.cents += amount;
    known.lines.push({ label, amount: units(amount) });
    byKey.set(key, known);
  };
  settled.forEach((death, i) => {
    const decedent = deaths[i].decedentName;
    const comesBack = i < settled.length - 1;
    for (const transfer of death.transfers) {
      if (comesBack && transfer.inSurvivorsEstate) continue;
      const key = transfer.toId ?? `heirs`;
      add(
        key,
        {
          ...transfer.toId === void 0 ? {} : { id: transfer.toId },
          name: transfer.toName,
          kind: transfer.toKind
        },
        transfer.amount - transfer.taxBorne,
        `At ${decedent}'s death`
      );
    }
    add("tax", { name: "Federal estate tax", kind: "tax" }, death.estateTax, `At ${decedent}'s death`);
  });
  return [...byKey.values()].map(({ cents: amount, ...rest }) => ({ ...rest, amount: units(amount) }));
}

// sdk/household-chart.ts
/*!
 * Hearth household chart — partner SDK (protocol v1).
 *
 * Mounts the pinned, embedded household chart into a container on your page and speaks the
 * chart's postMessage protocol for you. One self-contained ES module with no dependencies: load it
 * from the embed origin, pinned to the same version as the chart it mounts.
 *
 * Usage (a page on an origin registered for your organization with `hearth origins add`):
 *
 *   import { mountHouseholdChart, HouseholdChartError } from 'https://embed.hearth.example/chart/v0.3.0/sdk.js'
 *
 *   const chart = mountHouseholdChart({
 *     container: document.getElementById('household-chart')!,
 *     embedOrigin: 'https://embed.hearth.example',
 *     title: 'Household chart of the Chen family',
 *     // Your own server mints the token (POST /api/v1/embed/chart-sessions with your API key,
 *     // which never reaches the browser) and answers { token, expiresAt }.
 *     fetchToken: async () => {
 *       const response = await fetch('/chart-token', { method: 'POST' })
 *       if (!response.ok) throw new Error(`token endpoint answered ${response.status}`)
 *       return response.json()
 *     },
 *     payload: { household: { name: 'Chen Family' }, people: [{ id: 'robert', name: 'Robert Chen', role: 'primaryClient' }] },
 *     theme: 'system',
 *     appearance: { fontFamily: 'Inter, system-ui, sans-serif', accentColor: '#0a6e5c', cornerRadius: 8 },
 *     onEvent: (event) => {
 *       if (event.type === 'select') showDetails(event.id, event.kind)
 *       if (event.type === 'viewchange') highlightTab(event.view)
 *       if (event.type === 'error') console.warn(`chart: ${event.code}: ${event.message}`)
 *     },
 *   })
 *   try {
 *     await chart.ready // the chart has rendered once
 *   } catch (error) {
 *     if (error instanceof HouseholdChartError) console.error(error.code, error.message)
 *   }
 *   chart.update(nextPayload) // re-renders, with the token the SDK holds (or a new one)
 *   chart.setTheme('dark')
 *   chart.setView('flow') // 'family' | 'structure' | 'estate' | 'flow'
 *   chart.focus('robert') // selects a person or an entity and brings it into view
 *   chart.print() // the chart's print layout, through the browser's print dialog
 *   chart.setAppearance({ accentColor: '#7a3e9d' })
 *   chart.destroy() // removes the iframe, its listener and its timers
 *
 * What it does:
 * - Creates the iframe per the mounting rules: sandbox exactly "allow-scripts allow-same-origin",
 *   src = `${embedOrigin}/chart/v${version}/index.html` (a pinned version; never "latest"),
 *   referrerpolicy "origin", your title, width 100 %, no border, loading eager, and
 *   allow="fullscreen" (a permissions policy, not a sandbox flag: Present mode fills the screen).
 *   Styles are set through the CSSOM (iframe.style), so host pages with a strict style-src still work.
 * - Accepts a message only when its origin is the embed origin and its source is that iframe's
 *   window; everything else is ignored.
 * - Calls fetchToken as soon as it mounts (in parallel with the iframe loading); on the chart's
 *   `ready` posts `render {type: 'render', v: 1, token, payload, appearance?, handles}` to the
 *   embed origin, with `handles: ['download', 'print']`: this page saves and prints for the chart.
 * - Saves and prints for the chart. The mounting rules sandbox the iframe with exactly
 *   "allow-scripts allow-same-origin" (no allow-downloads, no allow-modals), so the chart can
 *   neither start a download nor open a print dialog itself. It makes the file (a PNG or an SVG) or
 *   the print document in the browser and posts it to this page. Nothing goes to any server.
 *   A file is saved through an object URL and a download link, and only as image/png or
 *   image/svg+xml (anything else is ignored), in a new Blob of that type, under its name with path
 *   separators, control and bidirectional characters replaced by "_", leading dots dropped, and the
 *   type's extension (.png, .svg) added when the name lacks it.
 *   A print document is printed from a hidden frame the SDK adds to this page, sandboxed
 *   "allow-same-origin allow-modals" (no allow-scripts: nothing in it can run), and removed after
 *   printing. Its markup is parsed inertly and cleaned first, as defence in depth (the chart sends
 *   nothing of this): script, iframe, frame, frameset, object, embed, link, meta, base and style
 *   elements and SVG animations (animate, set, animateMotion, animateTransform) are dropped; so are
 *   on* and style attributes, URL attributes (src, srcset, href, xlink:href, data, poster,
 *   background, action, formaction) other than #fragments and data:, and any attribute whose
 *   value holds a url() other than url(#…) (SVG's fill, filter, mask, clip-path, marker-*). Its CSS
 *   is parsed into a constructed stylesheet and cleaned before it applies: @import and @font-face
 *   rules go, as does every declaration (at any depth of @media, @supports and other grouping
 *   rules, custom properties included) whose value holds a url() other than url(#…) or image-set(),
 *   image() or src(), and any other rule that names one (@property's initial-value). The sheet is adopted (a strict style-src allows that, unlike a <style>
 *   element); a browser that cannot adopt it gets its cleaned rules in a <style> element, and one
 *   that cannot construct it prints without the chart's CSS.
 * - Sizes the iframe's height from the chart's `rendered` and `resize` messages.
 * - Fetches a new token 60 s before the held one's expiresAt (halfway through a token shorter
 *   than two minutes) and keeps it, quietly: a refresh posts no render, so the chart keeps the
 *   user's pan, zoom and focus, and no render is metered for it. The chart checks a token only
 *   when it renders, so the held token is what the next render uses: update(payload), or
 *   setTheme before the first render. A render never uses a held token with less than 15 s left:
 *   it fetches a new one first.
 * - Stops refreshing on an idle page: after 3 refreshes in a row with no render in between, the
 *   last token is kept until it expires and no further one is fetched (every fetch is a mint).
 *   The next render fetches a token first if the held one has expired or is about to, and
 *   refreshing resumes from there. (A setTheme, setView, focus, print or setAppearance after the
 *   first render needs no token and does not count as a render.)
 * - setView before the first render is sent once the chart has rendered; focus and print need a
 *   drawn chart (await `ready`) and do nothing before it.
 * - When the chart answers `token_expired` (a token that aged, or a skewed clock) it fetches a
 *   new token and renders again — once: if the chart finds the new token expired too, that is
 *   reported through onEvent (no retry loop).
 * - A second mount into the same container destroys the first.
 *
 * Errors, always as onEvent({type: 'error', code, message, path?}):
 * - from the chart: token_invalid, token_expired (only when the retry did not help),
 *   origin_mismatch, version_unsupported, payload_invalid (with the JSON Pointer in `path`),
 *   appearance_invalid (the mount's `appearance` breaks a rule; setAppearance reports one that
 *   does without sending it, and the chart keeps the appearance it has);
 * - from the SDK: ready_timeout (no `ready` within readyTimeoutMs, default 15 s: see the message
 *   for the likely causes), token_fetch_failed (fetchToken threw or returned no usable token).
 * `ready` resolves when the chart has rendered for the first time, and rejects with a
 * HouseholdChartError for the first failure before that (ready_timeout, token_fetch_failed, or a
 * chart error), or with code `destroyed` when the chart is destroyed first. It never rejects
 * unobserved: ignoring it is fine when you use onEvent. Later failures (a refresh that could not
 * fetch a token, an invalid payload given to update) come through onEvent only.
 */
var SDK_CHART_VERSION = "0.3.0";
var PROTOCOL_VERSION = 1;
var HouseholdChartError = class extends Error {
  code;
  /** For payload_invalid: the JSON Pointer of the first problem in the payload. */
  path;
  constructor(code, message, path) {
    super(message);
    this.name = "HouseholdChartError";
    this.code = code;
    if (path !== void 0) this.path = path;
  }
};
var SANDBOX = "allow-scripts allow-same-origin";
var ALLOW = "fullscreen";
var HANDLES = ["download", "print"];
var PRINT_SANDBOX = "allow-same-origin allow-modals";
var PRINT_DROPPED_ELEMENTS = "script, iframe, frame, frameset, object, embed, link, meta, base, style, animate, set, animateMotion, animateTransform";
var PRINT_URL_ATTRIBUTES = /* @__PURE__ */ new Set(["src", "srcset", "href", "xlink:href", "data", "poster", "background", "action", "formaction"]);
var IN_MEMORY_URL = /^\s*(#|data:)/i;
var CSS_ESCAPE = /\\(?:([0-9a-f]{1,6})[ \t\n\r\f]?|([^\n\r\f]))/gi;
var REMOTE_CSS_URL = /url\((?!\s*['"]?\s*#)/;
var CSS_STRING_URL_FUNCTION = /(?:^|[^a-z0-9_-])(?:-webkit-image-set|image-set|image|src)\(/;
var SAVED_FILE_TYPES = /* @__PURE__ */ new Map([
  ["image/png", ".png"],
  ["image/svg+xml", ".svg"]
]);
var UNSAFE_FILE_NAME = /[<>:"/\\|?*\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]+/gu;
var LEADING_DOTS = /^[\s.]+/u;
var REVOKE_AFTER_MS = 6e4;
var DEFAULT_READY_TIMEOUT_MS = 15e3;
var REFRESH_LEAD_MS = 6e4;
var MIN_REFRESH_DELAY_MS = 5e3;
var MIN_TOKEN_VALIDITY_MS = 15e3;
var MAX_IDLE_REFRESHES = 3;
var MAX_HEIGHT = 1e5;
var MAX_TIMER_DELAY_MS = 2147483647;
var VERSION = /^\d+\.\d+\.\d+$/;
var CHART_ERROR_CODES = /* @__PURE__ */ new Set(["token_invalid", "token_expired", "origin_mismatch", "version_unsupported", "payload_invalid", "appearance_invalid"]);
var THEMES = /* @__PURE__ */ new Set(["light", "dark", "system"]);
var VIEWS = /* @__PURE__ */ new Set(["family", "structure", "estate", "flow"]);
var mounted = /* @__PURE__ */ new WeakMap();
function mountHouseholdChart(options) {
  const { container, title, fetchToken, onEvent } = options;
  const embedOrigin = checkEmbedOrigin(options.embedOrigin);
  const version = checkVersion(options.version ?? SDK_CHART_VERSION);
  if (!isElementLike(container)) throw new TypeError("mountHouseholdChart: container must be an HTMLElement");
  if (typeof title !== "string" || title.trim() === "") throw new TypeError("mountHouseholdChart: title is required (the iframe's accessible name)");
  if (typeof fetchToken !== "function") throw new TypeError("mountHouseholdChart: fetchToken must be a function returning a Promise of { token, expiresAt }");
  if (options.theme !== void 0 && !THEMES.has(options.theme)) throw new TypeError(`mountHouseholdChart: theme must be light, dark or system, got ${JSON.stringify(options.theme)}`);
  const readyTimeoutMs = options.readyTimeoutMs ?? DEFAULT_READY_TIMEOUT_MS;
  if (!Number.isFinite(readyTimeoutMs) || readyTimeoutMs <= 0) throw new TypeError("mountHouseholdChart: readyTimeoutMs must be a positive number of milliseconds");
  mounted.get(container)?.destroy();
  let payload = options.payload;
  let theme = options.theme;
  let appearance = options.appearance;
  let openingView;
  let printFrame;
  let destroyed = false;
  let chartReady = false;
  let chartRendered = false;
  let held;
  let expiredRetryAvailable = true;
  let tokenRequest;
  let renderSeq = 0;
  let refreshTimer;
  let idleRefreshes = 0;
  let settleReady;
  const ready = new Promise((resolve, reject) => {
    settleReady = { resolve, reject };
  });
  ready.catch(() => void 0);
  const iframe = document.createElement("iframe");
  iframe.setAttribute("sandbox", SANDBOX);
  iframe.referrerPolicy = "origin";
  iframe.allow = ALLOW;
  iframe.title = title;
  iframe.loading = "eager";
  iframe.style.width = "100%";
  iframe.style.border = "0";
  iframe.style.display = "block";
  iframe.src = `${embedOrigin}/chart/v${version}/index.html`;
  const emit = (event) => {
    if (!onEvent || destroyed) return;
    try {
      onEvent(event);
    } catch (error) {
      setTimeout(() => {
        throw error;
      });
    }
  };
  const fail = (error) => {
    emit({ type: "error", code: error.code, message: error.message, ...error.path !== void 0 ? { path: error.path } : {} });
    settleReady?.reject(error);
    settleReady = void 0;
  };
  const post = (message) => {
    iframe.contentWindow?.postMessage(message, embedOrigin);
  };
  const clearRefresh = () => {
    if (refreshTimer !== void 0) clearTimeout(refreshTimer);
    refreshTimer = void 0;
  };
  const scheduleRefresh = (token) => {
    clearRefresh();
    if (idleRefreshes >= MAX_IDLE_REFRESHES) return;
    const remaining = token.expiresAtMs - Date.now();
    if (remaining <= 0) return;
    const wanted = Math.max(remaining > 2 * REFRESH_LEAD_MS ? remaining - REFRESH_LEAD_MS : remaining / 2, MIN_REFRESH_DELAY_MS);
    const delay = Math.min(wanted, MAX_TIMER_DELAY_MS);
    refreshTimer = setTimeout(() => {
      refreshTimer = void 0;
      idleRefreshes++;
      void getToken(true);
    }, delay);
  };
  const noteRender = () => {
    idleRefreshes = 0;
    if (refreshTimer === void 0 && tokenRequest === void 0 && held) scheduleRefresh(held);
  };
  const getToken = (fresh) => {
    if (tokenRequest) return tokenRequest;
    if (!fresh && held && held.expiresAtMs - Date.now() > MIN_TOKEN_VALIDITY_MS) return Promise.resolve(held);
    const request = Promise.resolve().then(() => fetchToken()).then(
      (answer) => {
        const token = checkToken(answer);
        if (!destroyed) {
          held = token;
          scheduleRefresh(token);
        }
        return token;
      },
      (error) => {
        throw tokenFetchError(error);
      }
    ).catch((error) => {
      if (!destroyed) fail(error instanceof HouseholdChartError ? error : tokenFetchError(error));
      return void 0;
    }).finally(() => {
      if (tokenRequest === request) tokenRequest = void 0;
    });
    tokenRequest = request;
    return request;
  };
  const renderedPayload = () => theme === void 0 ? payload : { ...payload, options: { ...payload.options, theme } };
  const render = (freshToken = false) => {
    if (!chartReady || destroyed) return;
    noteRender();
    const seq = ++renderSeq;
    void getToken(freshToken).then((token) => {
      if (!token || destroyed || !chartReady || seq !== renderSeq) return;
      post({
        type: "render",
        v: PROTOCOL_VERSION,
        token: token.token,
        payload: renderedPayload(),
        handles: HANDLES,
        ...appearance === void 0 ? {} : { appearance }
      });
    });
  };
  const onMessage = (event) => {
    if (destroyed || event.origin !== embedOrigin || event.source === null || event.source !== iframe.contentWindow) return;
    const data = event.data;
    if (typeof data !== "object" || data === null) return;
    const message = data;
    switch (message.type) {
      case "ready":
        clearReadyTimer();
        chartReady = true;
        chartRendered = false;
        render();
        return;
      case "rendered":
      case "resize": {
        const height = message.height;
        if (typeof height !== "number" || !Number.isFinite(height) || height < 0) return;
        iframe.style.height = `${Math.ceil(Math.min(height, MAX_HEIGHT))}px`;
        if (message.type === "rendered") {
          chartRendered = true;
          expiredRetryAvailable = true;
          if (openingView !== void 0) post({ type: "setView", v: PROTOCOL_VERSION, view: openingView });
          openingView = void 0;
          emit({ type: "rendered", height });
          settleReady?.resolve();
          settleReady = void 0;
        } else {
          emit({ type: "resize", height });
        }
        return;
      }
      case "select":
        if (typeof message.id === "string" && (message.kind === "person" || message.kind === "entity")) emit({ type: "select", id: message.id, kind: message.kind });
        return;
      case "viewchange":
        if (typeof message.view === "string" && VIEWS.has(message.view)) emit({ type: "viewchange", view: message.view });
        return;
      case "estate": {
        const projection = message.projection;
        if (isEstateProjection(projection)) emit({ type: "estate", projection });
        return;
      }
      case "download": {
        const mediaType = message.mediaType;
        const extension = typeof mediaType === "string" ? SAVED_FILE_TYPES.get(mediaType) : void 0;
        if (extension !== void 0 && typeof message.fileName === "string" && message.data instanceof Blob)
          saveFile(savedFileName(message.fileName, extension), new Blob([message.data], { type: mediaType }));
        return;
      }
      case "printdocument":
        if (typeof message.title === "string" && typeof message.html === "string" && typeof message.css === "string") {
          printFrame?.remove();
          printFrame = printDocument(message.title, message.html, message.css);
        }
        return;
      case "error": {
        const code = message.code;
        if (typeof code !== "string" || !CHART_ERROR_CODES.has(code)) return;
        if (code === "token_expired") {
          if (tokenRequest !== void 0) {
            render();
            return;
          }
          if (expiredRetryAvailable) {
            expiredRetryAvailable = false;
            render(true);
            return;
          }
        }
        const text = typeof message.message === "string" ? message.message : `the chart reported ${code}`;
        fail(new HouseholdChartError(code, text, typeof message.path === "string" ? message.path : void 0));
        return;
      }
      default:
        return;
    }
  };
  let readyTimer = setTimeout(() => {
    readyTimer = void 0;
    fail(readyTimeoutError(embedOrigin, version, readyTimeoutMs));
  }, readyTimeoutMs);
  const clearReadyTimer = () => {
    if (readyTimer !== void 0) clearTimeout(readyTimer);
    readyTimer = void 0;
  };
  window.addEventListener("message", onMessage);
  container.appendChild(iframe);
  void getToken(false);
  const handle = {
    iframe,
    ready,
    update(next) {
      if (destroyed) return;
      payload = next;
      render();
    },
    setTheme(next) {
      if (destroyed) return;
      if (!THEMES.has(next)) throw new TypeError(`setTheme: theme must be light, dark or system, got ${JSON.stringify(next)}`);
      theme = next;
      if (chartRendered) post({ type: "theme", v: PROTOCOL_VERSION, theme: next });
      else render();
    },
    setView(view) {
      if (destroyed) return;
      if (!VIEWS.has(view)) throw new TypeError(`setView: view must be family, structure, estate or flow, got ${JSON.stringify(view)}`);
      if (chartRendered) post({ type: "setView", v: PROTOCOL_VERSION, view });
      else openingView = view;
    },
    focus(id) {
      if (destroyed) return;
      if (typeof id !== "string") throw new TypeError(`focus: id must be the string id of a person or an entity, got ${String(id)}`);
      if (chartRendered) post({ type: "focus", v: PROTOCOL_VERSION, id });
    },
    print() {
      if (!destroyed && chartRendered) post({ type: "print", v: PROTOCOL_VERSION });
    },
    setAppearance(next) {
      if (destroyed) return;
      const reading = readAppearance(next);
      if (!reading.ok) {
        emit({ type: "error", code: "appearance_invalid", message: reading.message });
        return;
      }
      appearance = reading.appearance;
      if (chartRendered) post({ type: "appearance", v: PROTOCOL_VERSION, appearance: reading.appearance });
      else render();
    },
    destroy() {
      if (destroyed) return;
      destroyed = true;
      window.removeEventListener("message", onMessage);
      clearReadyTimer();
      clearRefresh();
      iframe.remove();
      printFrame?.remove();
      if (mounted.get(container) === handle) mounted.delete(container);
      settleReady?.reject(new HouseholdChartError("destroyed", "the chart was destroyed before it rendered"));
      settleReady = void 0;
    }
  };
  mounted.set(container, handle);
  return handle;
}
function saveFile(fileName, data) {
  const url = URL.createObjectURL(data);
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  link.rel = "noopener";
  link.hidden = true;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), REVOKE_AFTER_MS);
}
function printDocument(title, html, css) {
  const frame = document.createElement("iframe");
  frame.setAttribute("sandbox", PRINT_SANDBOX);
  frame.setAttribute("aria-hidden", "true");
  frame.tabIndex = -1;
  frame.title = title;
  frame.style.position = "fixed";
  frame.style.width = "0";
  frame.style.height = "0";
  frame.style.border = "0";
  document.body.appendChild(frame);
  const view = frame.contentWindow;
  const target = frame.contentDocument;
  if (!view || !target) {
    frame.remove();
    return void 0;
  }
  const parsed = new DOMParser().parseFromString(html, "text/html");
  for (const element of parsed.querySelectorAll(PRINT_DROPPED_ELEMENTS)) element.remove();
  for (const element of parsed.querySelectorAll("*")) {
    for (const name of element.getAttributeNames()) {
      const lower = name.toLowerCase();
      const value = element.getAttribute(name) ?? "";
      const fetches = PRINT_URL_ATTRIBUTES.has(lower) && !IN_MEMORY_URL.test(value);
      if (lower.startsWith("on") || lower === "style" || fetches || REMOTE_CSS_URL.test(decodedCss(value))) element.removeAttribute(name);
    }
  }
  target.title = title;
  target.body.replaceChildren(...Array.from(parsed.body.childNodes, (node) => target.importNode(node, true)));
  applyPrintStyles(view, target, css);
  view.addEventListener("afterprint", () => frame.remove(), { once: true });
  view.print();
  return frame;
}
function applyPrintStyles(view, target, css) {
  if (typeof view.CSSStyleSheet !== "function" || typeof view.CSSStyleSheet.prototype.replaceSync !== "function") return;
  const sheet = new view.CSSStyleSheet();
  sheet.replaceSync(css);
  cleanRules(view, sheet);
  const adoptable = target;
  if (adoptable.adoptedStyleSheets !== void 0) {
    target.adoptedStyleSheets = [sheet];
    return;
  }
  const style = target.createElement("style");
  style.textContent = Array.from(sheet.cssRules, (rule) => rule.cssText).join("\n");
  target.head.appendChild(style);
}
function cleanRules(view, parent) {
  const rules = parent.cssRules;
  for (let index = rules.length - 1; index >= 0; index--) {
    const rule = rules[index];
    const holdsRules = rule instanceof view.CSSGroupingRule || rule instanceof view.CSSKeyframesRule;
    const declarations = "style" in rule && rule.style instanceof view.CSSStyleDeclaration ? rule.style : void 0;
    if (declarations) cleanDeclarations(declarations);
    if (holdsRules) cleanRules(view, rule);
    const namesUrl = !holdsRules && declarations === void 0 && !(rule instanceof view.CSSNamespaceRule) && loadsInCss(rule.cssText);
    const dropped = rule instanceof view.CSSImportRule || rule instanceof view.CSSFontFaceRule || namesUrl;
    if (dropped && !(parent instanceof view.CSSKeyframesRule)) parent.deleteRule(index);
  }
}
function cleanDeclarations(style) {
  for (let index = style.length - 1; index >= 0; index--) {
    const name = style.item(index);
    if (loadsInCss(style.getPropertyValue(name))) style.removeProperty(name);
  }
}
function loadsInCss(text) {
  const decoded = decodedCss(text);
  return REMOTE_CSS_URL.test(decoded) || CSS_STRING_URL_FUNCTION.test(decoded);
}
function decodedCss(text) {
  return text.replace(CSS_ESCAPE, (_escape, hex, character) => {
    if (hex === void 0) return character ?? "";
    const codePoint = Number.parseInt(hex, 16);
    return codePoint > 0 && codePoint <= 1114111 ? String.fromCodePoint(codePoint) : "\uFFFD";
  }).toLowerCase();
}
function savedFileName(fileName, extension) {
  const safe = fileName.replace(UNSAFE_FILE_NAME, "_").replace(LEADING_DOTS, "");
  return safe.toLowerCase().endsWith(extension) ? safe : `${safe || "chart"}${extension}`;
}
function isElementLike(value) {
  return typeof value === "object" && value !== null && typeof value.appendChild === "function";
}
function checkEmbedOrigin(input) {
  const rule = "embedOrigin must be a bare origin such as https://embed.hearth.example (scheme, host and port; no path or trailing slash)";
  if (typeof input !== "string") throw new TypeError(`mountHouseholdChart: ${rule}`);
  let url;
  try {
    url = new URL(input);
  } catch {
    throw new TypeError(`mountHouseholdChart: ${rule}, got "${input}"`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:" || url.origin !== input) {
    throw new TypeError(`mountHouseholdChart: ${rule}, got "${input}"${url.origin !== "null" && url.origin !== input ? ` (did you mean ${url.origin}?)` : ""}`);
  }
  return url.origin;
}
function checkVersion(input) {
  if (input === "latest") throw new TypeError('mountHouseholdChart: version "latest" is not served: pin a released version such as 0.1.0');
  if (typeof input !== "string" || !VERSION.test(input)) throw new TypeError(`mountHouseholdChart: version must be a released version x.y.z, got ${JSON.stringify(input)}`);
  return input;
}
function checkToken(answer) {
  if (typeof answer !== "object" || answer === null) throw new TypeError("fetchToken must resolve to { token, expiresAt }");
  const { token, expiresAt } = answer;
  if (typeof token !== "string" || token === "") throw new TypeError("fetchToken resolved without a token");
  const expiresAtMs = typeof expiresAt === "string" ? Date.parse(expiresAt) : Number.NaN;
  if (Number.isNaN(expiresAtMs)) throw new TypeError(`fetchToken resolved with an expiresAt that is not a date: ${JSON.stringify(expiresAt)}`);
  return { token, expiresAtMs };
}
function tokenFetchError(cause) {
  const why = cause instanceof Error ? cause.message : String(cause);
  return new HouseholdChartError("token_fetch_failed", `fetchToken failed: ${why}. It should call your server, which mints a token with POST /api/v1/embed/chart-sessions and answers { token, expiresAt }.`);
}
function readyTimeoutError(embedOrigin, version, timeoutMs) {
  return new HouseholdChartError(
    "ready_timeout",
    `The household chart (${embedOrigin}/chart/v${version}/index.html) did not say ready within ${timeoutMs} ms. Likely causes: (1) this page's origin (${window.location.origin}) is not registered for your organization, so the chart refuses to be framed \u2014 register it with \`hearth origins add\`; (2) this page's Content-Security-Policy blocks the embed origin \u2014 add ${embedOrigin} to frame-src (or child-src); (3) the embed origin could not identify this page's origin because the frame's Referer was stripped (e.g. by a browser extension or a proxy), so the chart refuses to be framed; (4) a wrong embedOrigin or version \u2014 the page above must load in a browser tab; (5) a slow network \u2014 raise readyTimeoutMs.`
  );
}
function projectEstate2(payload, choices = {}) {
  return projectEstate(payload, choices);
}
function isEstateProjection(value) {
  return typeof value === "object" && value !== null && value.version === 1;
}
export {
  HouseholdChartError,
  PROTOCOL_VERSION,
  SDK_CHART_VERSION,
  mountHouseholdChart,
  projectEstate2 as projectEstate
};
