/**
 * Run-time support for generated persistent classes: the global application view, type descriptors, the
 * transaction session, out-of-line blobs and reference lists, and the schema catalog. Public only because
 * generated code in application packages calls it; not an API for applications.
 */
package dev.quickstore.api.internal;
