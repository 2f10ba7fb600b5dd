/**
 * Hosking and Moss, "Lightweight write detection and checkpointing for fine-grained persistence" (Purdue TR 1995,
 * hosking-moss-write-detection.txt): the five write-detection schemes of the store ({@code WriteDetection}: pages,
 * cards of 2^k bytes, objects, remsets, scan) measured on one database in one run - the cost per update (first and
 * repeated), the checkpoint (commit) cost against the fraction of parts updated, the card-size sweep, and OO7's
 * small T1/T2A/T2B/T2C on each scheme checked against the heap ({@link dev.quickstore.lab.writes.WriteDetectionLab},
 * {@code qs lab hosking-moss}).
 */
package dev.quickstore.lab.writes;
