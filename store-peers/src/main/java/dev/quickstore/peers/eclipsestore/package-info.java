/**
 * OO7 on Eclipse Store ({@link dev.quickstore.peers.eclipsestore.EclipseStoreOo7Store}): the schema as plain
 * Java classes with {@code Lazy} references, stored with {@code store()} of the changed objects at commit.
 */
package dev.quickstore.peers.eclipsestore;
