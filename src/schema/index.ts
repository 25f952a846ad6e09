// The schema layer: valibot schemas for every input surface, and their messages in the project's form,
// "field.path: reason (how to fix)". Imports util and valibot only; every room that parses input imports it.
export { InputError, parseInput, problemsWith, reasonWith } from './issues';
export { int, isObj, nonEmpty, num, oneOf, show, text } from './rules';
export { checkFields, eachField, unknownFields, type Fields } from './fields';
