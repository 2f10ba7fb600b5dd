/**
 * Named instants in the store's write path at which a crash test can stop its child process and kill it
 * ({@link dev.quickstore.core.crashpoint.CrashPoints}); a leaf package that depends on nothing.
 */
package dev.quickstore.core.crashpoint;
