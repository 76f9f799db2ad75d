/**
 * The boxed expressions DMN 1.4 added and DMN 1.5 kept (DMN 1.5 sections 10.2.2.x: conditional,
 * iterator `for`/`some`/`every`, filter), which dmn-moddle's DMN 1.3 meta-model lacks. A 1.4/1.5
 * document's elements of those names are moved into a namespace of our own, described below as
 * a moddle package whose types extend `dmn:Expression`, so they stand wherever DMN 1.3 lets a
 * boxed expression stand and their children are read as ordinary boxed expressions.
 */
export const NEWER_BOXED_URI = 'urn:wifi-access:dmn-engine:dmn15-boxed';
const PREFIX = 'boxed15';

const child = (name: string) => ({ name, type: 'ChildExpression' });

/** The moddle package of the DMN 1.5 XSD types tConditional, tFor, tSome, tEvery, tFilter. */
export const NEWER_BOXED_PACKAGE = {
  name: 'DMN15Boxed',
  prefix: PREFIX,
  uri: NEWER_BOXED_URI,
  xml: { tagAlias: 'lowerCase' },
  types: [
    { name: 'ChildExpression', superClass: ['dmn:DMNElement'], properties: [{ name: 'value', type: 'dmn:Expression' }] },
    { name: 'Conditional', superClass: ['dmn:Expression'], properties: [child('if'), child('then'), child('else')] },
    { name: 'For', superClass: ['dmn:Expression'], properties: [{ name: 'iteratorVariable', isAttr: true, type: 'String' }, child('in'), child('return')] },
    { name: 'Some', superClass: ['dmn:Expression'], properties: [{ name: 'iteratorVariable', isAttr: true, type: 'String' }, child('in'), child('satisfies')] },
    {
      name: 'Every',
      superClass: ['dmn:Expression'],
      properties: [{ name: 'iteratorVariable', isAttr: true, type: 'String' }, child('in'), child('satisfies')],
    },
    { name: 'Filter', superClass: ['dmn:Expression'], properties: [child('in'), child('match')] },
  ],
};

const ELEMENTS = 'conditional|if|then|else|for|some|every|in|return|satisfies|filter|match';
const TAG = new RegExp(`<(/?)(?:[\\w.-]+:)?(${ELEMENTS})(?=[\\s>/])`, 'g');

/** Moves the DMN 1.5 boxed-expression elements of a 1.4/1.5 document into our namespace. */
export function withNewerBoxed(xml: string): string {
  if (!/<(?:[\w.-]+:)?(?:conditional|for|some|every|filter)[\s>/]/.test(xml)) return xml;
  const renamed = xml.replace(TAG, (_all, slash: string, name: string) => `<${slash}${PREFIX}:${name}`);
  return renamed.replace(/<((?:[\w.-]+:)?definitions)(?=[\s>])/, `<$1 xmlns:${PREFIX}="${NEWER_BOXED_URI}"`);
}
