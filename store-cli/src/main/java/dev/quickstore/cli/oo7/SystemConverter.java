package dev.quickstore.cli.oo7;

/** Picocli converter of {@code --system} values ({@code qs-b} is no Java identifier). */
final class SystemConverter implements picocli.CommandLine.ITypeConverter<SystemUnderTest> {
    @Override
    public SystemUnderTest convert(String value) {
        try {
            return SystemUnderTest.of("--system", value);
        } catch (IllegalArgumentException e) { // picocli prints a TypeConversionException's message alone
            throw new picocli.CommandLine.TypeConversionException(
                    "unknown system '" + value + "'; expected one of " + SystemUnderTest.names());
        }
    }
}
