/**
 * OO7 on the persistent stores Java users compare QuickStore/J with (issue 17): Eclipse Store, LMDB through
 * lmdbjava and H2's MVStore, each an {@link dev.quickstore.oo7.Oo7Store} written the way that store's own users
 * would write it, so that {@code qs oo7 run --system heap,qs,eclipsestore,lmdb,mvstore} runs the same OO7 code
 * on all of them. {@link dev.quickstore.peers.Peers} opens one by name.
 */
package dev.quickstore.peers;
