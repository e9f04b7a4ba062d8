/**
 * How every service and a worker stop on SIGTERM: {@code StopWithinTenSecondsTest} (entry point) runs the built jars
 * on a private broker and database of its own ({@code StopStack}), never the shared {@link io.trimus.system.SystemStack},
 * because it stops the broker and the database under them. Must never import a service's own code.
 */
package io.trimus.system.stop;
