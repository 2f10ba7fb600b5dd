package dev.quickstore.processor;

import java.io.IOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.annotation.processing.AbstractProcessor;
import javax.annotation.processing.Filer;
import javax.annotation.processing.Messager;
import javax.annotation.processing.RoundEnvironment;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.PackageElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.ArrayType;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.Elements;
import javax.tools.Diagnostic;

/**
 * Generates {@code <Name>$Impl} for every interface annotated {@code @dev.quickstore.api.Persistent}: a final
 * class whose accessors read and write the object's fields at offsets fixed at compile time, through the
 * store's application view (see docs/object-api.md for the layout rules and an example of generated code).
 *
 * <p>The processor depends on the JDK only (it names the run-time classes by string), so it never has to be
 * on a run-time class path.
 */
public final class PersistentProcessor extends AbstractProcessor {
    static final String PERSISTENT = "dev.quickstore.api.Persistent";
    static final String CHARS = "dev.quickstore.api.Chars";

    private Messager messager;
    private Filer filer;
    private Elements elements;

    @Override
    public Set<String> getSupportedAnnotationTypes() {
        return Set.of(PERSISTENT, CHARS); // claims @Chars too: no "unclaimed annotation" lint warning
    }

    @Override
    public SourceVersion getSupportedSourceVersion() {
        return SourceVersion.latestSupported();
    }

    @Override
    public synchronized void init(javax.annotation.processing.ProcessingEnvironment env) {
        super.init(env);
        messager = env.getMessager();
        filer = env.getFiler();
        elements = env.getElementUtils();
    }

    @Override
    public boolean process(Set<? extends TypeElement> annotations, RoundEnvironment round) {
        TypeElement persistent = elements.getTypeElement(PERSISTENT);
        if (persistent == null) {
            return false;
        }
        // analyse every type of the round first: a type's generated factory inlines the tags of its
        // sub-interfaces compiled with it (polymorphic references without a table lookup)
        Map<TypeElement, PersistentType> models = new LinkedHashMap<>();
        for (Element e : round.getElementsAnnotatedWith(persistent)) {
            if (e.getKind() != ElementKind.INTERFACE) {
                messager.printMessage(Diagnostic.Kind.ERROR, "@Persistent applies to interfaces only", e);
                continue;
            }
            TypeElement type = (TypeElement) e;
            try {
                models.put(type, analyse(type));
            } catch (ModelException ex) {
                messager.printMessage(Diagnostic.Kind.ERROR, ex.getMessage(), ex.element != null ? ex.element : type);
            }
        }
        for (Map.Entry<TypeElement, PersistentType> en : models.entrySet()) {
            TypeElement type = en.getKey();
            List<PersistentType> subtypes = new ArrayList<>();
            String name = type.getQualifiedName().toString();
            for (Map.Entry<TypeElement, PersistentType> other : models.entrySet()) {
                if (other.getKey() != type && superNames(other.getKey()).contains(name)) {
                    subtypes.add(other.getValue());
                }
            }
            try {
                write(en.getValue(), subtypes, type);
            } catch (IOException ex) {
                messager.printMessage(
                        Diagnostic.Kind.ERROR, "cannot write " + implName(type) + ": " + ex.getMessage(), type);
            }
        }
        return true;
    }

    /** Qualified names of every super-interface of {@code type}, transitively. */
    private static Set<String> superNames(TypeElement type) {
        Set<String> out = new java.util.HashSet<>();
        java.util.ArrayDeque<TypeElement> todo = new java.util.ArrayDeque<>();
        todo.add(type);
        while (!todo.isEmpty()) {
            for (TypeMirror sup : todo.poll().getInterfaces()) {
                TypeElement el = (TypeElement) ((DeclaredType) sup).asElement();
                if (out.add(el.getQualifiedName().toString())) {
                    todo.add(el);
                }
            }
        }
        return out;
    }

    static final class ModelException extends Exception {
        private static final long serialVersionUID = 1L;
        final transient Element element;

        ModelException(String message, Element element) {
            super(message);
            this.element = element;
        }
    }

    private boolean isPersistent(TypeMirror t) {
        if (t.getKind() != TypeKind.DECLARED) {
            return false;
        }
        Element el = ((DeclaredType) t).asElement();
        for (AnnotationMirror am : el.getAnnotationMirrors()) {
            if (((TypeElement) am.getAnnotationType().asElement())
                    .getQualifiedName()
                    .contentEquals(PERSISTENT)) {
                return el.getKind() == ElementKind.INTERFACE;
            }
        }
        return false;
    }

    private static int charsLength(ExecutableElement getter) {
        for (AnnotationMirror am : getter.getAnnotationMirrors()) {
            if (((TypeElement) am.getAnnotationType().asElement())
                    .getQualifiedName()
                    .contentEquals(CHARS)) {
                for (Map.Entry<? extends ExecutableElement, ? extends AnnotationValue> en :
                        am.getElementValues().entrySet()) {
                    if (en.getKey().getSimpleName().contentEquals("value")) {
                        return (Integer) en.getValue().getValue();
                    }
                }
            }
        }
        return -1;
    }

    /** Interface methods in a stable order: super-interfaces first (depth first), then own, in source order. */
    private void collect(TypeElement type, List<ExecutableElement> out, Set<String> seenTypes) {
        if (!seenTypes.add(type.getQualifiedName().toString())) {
            return;
        }
        for (TypeMirror sup : type.getInterfaces()) {
            collect((TypeElement) ((DeclaredType) sup).asElement(), out, seenTypes);
        }
        for (Element m : type.getEnclosedElements()) {
            if (m.getKind() == ElementKind.METHOD
                    && m.getModifiers().contains(Modifier.ABSTRACT)
                    && !m.getModifiers().contains(Modifier.STATIC)) {
                out.add((ExecutableElement) m);
            }
        }
    }

    private PersistentType analyse(TypeElement type) throws ModelException {
        List<ExecutableElement> methods = new ArrayList<>();
        collect(type, methods, new java.util.HashSet<>());
        Map<String, ExecutableElement> getters = new LinkedHashMap<>();
        Map<String, ExecutableElement> setters = new LinkedHashMap<>();
        for (ExecutableElement m : methods) {
            String name = m.getSimpleName().toString();
            if (m.getParameters().isEmpty() && m.getReturnType().getKind() != TypeKind.VOID) {
                ExecutableElement prev = getters.putIfAbsent(name, m);
                if (prev != null
                        && !prev.getReturnType()
                                .toString()
                                .equals(m.getReturnType().toString())) {
                    throw new ModelException("getter " + name + "() is declared twice with different types", m);
                }
            } else if (m.getParameters().size() == 1 && m.getReturnType().getKind() == TypeKind.VOID) {
                setters.putIfAbsent(name, m);
            } else {
                throw new ModelException(
                        "persistent interfaces declare only record-style accessors: T " + name + "() and void " + name
                                + "(T); " + name + " is neither",
                        m);
            }
        }
        List<FieldModel> fields = new ArrayList<>();
        for (Map.Entry<String, ExecutableElement> en : getters.entrySet()) {
            ExecutableElement g = en.getValue();
            ExecutableElement s = setters.remove(en.getKey());
            fields.add(field(en.getKey(), g, s));
        }
        if (!setters.isEmpty()) {
            ExecutableElement s = setters.values().iterator().next();
            throw new ModelException("setter " + s.getSimpleName() + "(...) has no matching getter", s);
        }
        if (fields.isEmpty()) {
            throw new ModelException("a persistent interface needs at least one accessor", type);
        }
        String qn = type.getQualifiedName().toString();
        return new PersistentType(
                qn, packageOf(type), implName(type), Layout.place(fields).withId(qn));
    }

    private FieldModel field(String name, ExecutableElement g, ExecutableElement s) throws ModelException {
        TypeMirror t = g.getReturnType();
        int chars = charsLength(g);
        Kind kind;
        String refType = "";
        String refImpl = "";
        int length;
        switch (t.getKind()) {
            case BYTE -> kind = Kind.BYTE;
            case SHORT -> kind = Kind.SHORT;
            case CHAR -> kind = Kind.CHAR;
            case INT -> kind = Kind.INT;
            case LONG -> kind = Kind.LONG;
            case FLOAT -> kind = Kind.FLOAT;
            case DOUBLE -> kind = Kind.DOUBLE;
            case BOOLEAN -> kind = Kind.BOOLEAN;
            case ARRAY -> {
                if (((ArrayType) t).getComponentType().getKind() != TypeKind.BYTE) {
                    throw new ModelException("unsupported array type " + t + " of " + name + "(): only byte[]", g);
                }
                kind = Kind.BYTES;
            }
            case DECLARED -> {
                DeclaredType dt = (DeclaredType) t;
                String qn = ((TypeElement) dt.asElement()).getQualifiedName().toString();
                if (qn.equals("java.lang.String") || qn.equals("java.lang.CharSequence")) {
                    kind = chars >= 0 ? Kind.CHARS : Kind.STRING;
                } else if ((qn.equals("java.util.List")
                                || qn.equals("java.util.Set")
                                || qn.equals("java.util.Collection"))
                        && dt.getTypeArguments().size() == 1
                        && isPersistent(dt.getTypeArguments().get(0))) {
                    kind = switch (qn) {
                        case "java.util.List" -> Kind.LIST;
                        case "java.util.Set" -> Kind.SET;
                        default -> Kind.BAG;
                    };
                    TypeElement el =
                            (TypeElement) ((DeclaredType) dt.getTypeArguments().get(0)).asElement();
                    refType = el.getQualifiedName().toString();
                    refImpl = qualifiedImplName(el);
                } else if (isPersistent(t)) {
                    kind = Kind.REF;
                    TypeElement el = (TypeElement) dt.asElement();
                    refType = el.getQualifiedName().toString();
                    refImpl = qualifiedImplName(el);
                } else {
                    throw new ModelException(
                            "unsupported type " + t + " of " + name
                                    + "(): use a primitive, String (with @Chars(n) for a fixed length), CharSequence,"
                                    + " byte[], a @Persistent interface or a java.util.List, Set or Collection (bag) of one",
                            g);
                }
            }
            default -> throw new ModelException("unsupported type " + t + " of " + name + "()", g);
        }
        if (chars >= 0 && kind != Kind.CHARS) {
            throw new ModelException("@Chars applies to String getters only", g);
        }
        if (kind == Kind.CHARS) {
            if (chars < 1 || chars > 255) {
                throw new ModelException("@Chars(" + chars + ") of " + name + "(): length must be 1..255", g);
            }
            length = chars;
        } else {
            length = kind.size;
        }
        String setterParam = null;
        if (s != null) {
            if (kind.collection()) {
                throw new ModelException(
                        kind.name().toLowerCase(java.util.Locale.ROOT) + " property " + name
                                + " is a live view of its references: declare no setter",
                        s);
            }
            TypeMirror p = s.getParameters().get(0).asType();
            boolean textual = kind == Kind.CHARS || kind == Kind.STRING;
            if (!p.toString().equals(t.toString())
                    && !(textual
                            && (p.toString().equals("java.lang.String")
                                    || p.toString().equals("java.lang.CharSequence")))) {
                throw new ModelException("setter " + name + "(" + p + ") does not match getter type " + t, s);
            }
            setterParam = p.toString();
        }
        return new FieldModel(name, kind, length, t.toString(), setterParam, refType, refImpl);
    }

    static String packageOf(TypeElement type) {
        Element e = type;
        while (!(e instanceof PackageElement)) {
            e = e.getEnclosingElement();
        }
        return ((PackageElement) e).getQualifiedName().toString();
    }

    /** {@code p.Outer.Node} becomes {@code Outer$Node$Impl} (in package {@code p}). */
    static String implName(TypeElement type) {
        String pkg = packageOf(type);
        String qn = type.getQualifiedName().toString();
        String rest = pkg.isEmpty() ? qn : qn.substring(pkg.length() + 1);
        return rest.replace('.', '$') + "$Impl";
    }

    /** {@code p.Outer.Node} becomes {@code p.Outer$Node$Impl}: usable in source from any package. */
    static String qualifiedImplName(TypeElement type) {
        String pkg = packageOf(type);
        return pkg.isEmpty() ? implName(type) : pkg + "." + implName(type);
    }

    private void write(PersistentType model, List<PersistentType> subtypes, TypeElement origin) throws IOException {
        String fqcn = model.pkg().isEmpty() ? model.implName() : model.pkg() + "." + model.implName();
        String source = SourceWriter.generate(model, subtypes);
        try (Writer w = filer.createSourceFile(fqcn, origin).openWriter()) {
            w.write(source);
        }
        // software persistence (docs/software-mode.md): a second implementation of the same interface
        String soft = SoftSourceWriter.softName(fqcn);
        try (Writer w = filer.createSourceFile(soft, origin).openWriter()) {
            w.write(SoftSourceWriter.generate(model, subtypes));
        }
        // the allocation-free navigation form (docs/object-api.md, "Cursors")
        String cursor = model.pkg().isEmpty()
                ? CursorWriter.cursorName(model.implName())
                : model.pkg() + "." + CursorWriter.cursorName(model.implName());
        try (Writer w = filer.createSourceFile(cursor, origin).openWriter()) {
            w.write(CursorWriter.generate(model));
        }
    }
}
