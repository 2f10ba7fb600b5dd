/**
 * The native data plane of QuickStore/J: the mapped arena, the C fault path behind it and its FFM binding
 * (docs/native.md). Callers need {@code --enable-native-access=dev.quickstore.mmu} on the module path, or
 * {@code --enable-native-access=ALL-UNNAMED} on the class path.
 */
module dev.quickstore.mmu {
    exports dev.quickstore.mmu;
}
