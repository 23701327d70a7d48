// Translations: English, Ukrainian and Russian. The language comes from the
// browser (navigator.languages) unless the player picked one. Only the
// language in use is loaded (each is a module of its own, ./lang/CODE.js,
// fetched when first chosen): every language is complete, so none needs
// another to fall back on.
//
// A string may hold {placeholders}; a plural entry is an object keyed by
// Intl.PluralRules categories ({one, few, many, other}) and gets {n}.
//
// Grammatical cases: a language module's ``terms`` give words (a card's
// rank and suit) in each case the language needs ({nom, acc, gen}: "Король",
// "короля", "короля"). A parameter may be such a term (cards.js cardTerm),
// and a template names the case it needs: "зіграйте {card:acc}" says
// "зіграйте короля бубон", "{card}" the nominative. English has one form.

import { loadLang, saveLang } from "./storage.js";

/** The languages offered, by code, each named in itself. */
/** @type {{[code: string]: string}} */
export const LANGUAGES = { en: "English", uk: "Українська", ru: "Русский" };
let current = "en";
/** @type {import("./types").Language} */
let table = { strings: {}, rules: null, terms: {} }; // the module of the current language
let plural = new Intl.PluralRules("en");
/** @type {((lang: string) => void)[]} */
const listeners = [];

/** The language to start with: the player's choice, else the browser's. */
export function detectLanguage() {
  const saved = loadLang();
  if (saved && LANGUAGES[saved]) return saved;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (LANGUAGES[base]) return base;
    if (base === "be") return "ru";
  }
  return "en";
}

/** The strings and Rules/FAQ text of ``lang`` (a module load: once per language).
 * @param {string} lang
 * @returns {Promise<import("./types").Language>}
 */
export async function loadLanguage(lang) {
  const module = await import(`./lang/${lang}.js`);
  return module.default;
}

/** Switch to ``lang`` (loading it first); ``remember``: the player chose it.
 * @param {string} lang
 * @param {boolean} [remember]
 */
export async function setLanguage(lang, remember = false) {
  if (!LANGUAGES[lang]) return;
  const loaded = await loadLanguage(lang);
  table = loaded;
  current = lang;
  plural = new Intl.PluralRules(lang);
  document.documentElement.lang = lang;
  if (remember) saveLang(lang);
  for (const fn of listeners) fn(lang);
}

export const language = () => current;
/** @param {(lang: string) => void} fn */
export const onLanguageChange = (fn) => listeners.push(fn);

/** Whether the current language has a string for ``key``.
 * @param {string} key
 */
export const hasString = (key) => key in table.strings;

/** @param {string} key @returns {import("./types").Entry | undefined} */
function lookup(key) {
  return table.strings[key];
}

/** The text of ``key`` with {placeholders} filled in.
 * @param {string} key
 * @param {{[name: string]: unknown}} [params]
 * @returns {string}
 */
export function t(key, params = {}) {
  let entry = lookup(key);
  if (entry === undefined) {
    console.warn(`missing translation: ${key}`);
    return key;
  }
  if (typeof entry === "object") {
    entry = entry[plural.select(Number(params.n ?? 0))] ?? entry.other;
  }
  return entry.replace(/\{(\w+)(?::(\w+))?\}/g, (whole, name, grammaticalCase) =>
    name in params ? inCase(params[name], grammaticalCase) : whole,
  );
}

/** A parameter as text: a term (an object of case forms) in ``grammaticalCase``
 * (the nominative when the template names none or the term lacks it).
 * @param {unknown} value
 * @param {string} [grammaticalCase] */
function inCase(value, grammaticalCase = "nom") {
  if (value !== null && typeof value === "object") {
    const forms = /** @type {import("./types").Term} */ (value);
    return String(forms[grammaticalCase] ?? forms.nom);
  }
  return String(value);
}

/** The forms of a word of ``group`` ("rank", "suit") by grammatical case,
 * e.g. {nom: "Король", acc: "короля", gen: "короля"}; a language without
 * cases gives one form, the nominative.
 * @param {string} group
 * @param {string} key
 * @returns {import("./types").Term} */
export function term(group, key) {
  const entry = table.terms?.[group]?.[key];
  if (entry === undefined) {
    console.warn(`missing term: ${group}.${key}`);
    return { nom: key };
  }
  return typeof entry === "string" ? { nom: entry } : entry;
}

/** The Rules/FAQ page's content in the current language. */
export const rulesContent = () => table.rules;

/** Fill every [data-i18n] element (static text of index.html).
 * @param {ParentNode} [root]
 */
export function translateStatic(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.getAttribute("data-i18n") || "");
  for (const el of root.querySelectorAll("[data-i18n-label]")) {
    el.setAttribute("aria-label", t(el.getAttribute("data-i18n-label") || ""));
  }
  document.title = t("app.title");
}
