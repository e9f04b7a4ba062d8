/**
 * Errors of the JSON APIs as RFC 9457 problem+json: the body, the exception a service throws to answer with one, and
 * the mapper that turns every failure into one without class names, stack traces or SQL. Entry point:
 * {@link io.trimus.commons.problem.ProblemException}. Imports no other commons package and no service.
 */
package io.trimus.commons.problem;
