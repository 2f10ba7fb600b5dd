/**
 * The papers lab (issue 16): the experiments of the seed papers other than QuickStore's own, each in a
 * sub-package named after its mechanism, each regenerating its paper's tables on this machine behind a {@code qs
 * lab} command (store-cli, {@code dev.quickstore.cli.lab}). Results and readings: docs/results.md, one section per
 * paper.
 */
package dev.quickstore.lab;
