package dev.quickstore.api;

/** One field of every kind (the generated-code tests). */
@Persistent
public interface Kinds {
    byte b();

    void b(byte v);

    short s();

    void s(short v);

    char c();

    void c(char v);

    int i();

    void i(int v);

    long l();

    void l(long v);

    float f();

    void f(float v);

    double d();

    void d(double v);

    boolean z();

    void z(boolean v);

    @Chars(10)
    String type();

    void type(String v);

    String name();

    void name(String v);

    CharSequence text();

    void text(CharSequence v);

    byte[] data();

    void data(byte[] v);

    Kinds other();

    void other(Kinds v);

    java.util.List<Kinds> children();
}
