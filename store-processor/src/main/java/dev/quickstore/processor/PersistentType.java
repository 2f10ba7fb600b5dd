package dev.quickstore.processor;

/** A persistent interface with its computed layout. */
record PersistentType(String qualifiedName, String pkg, String implName, Layout layout) {}
